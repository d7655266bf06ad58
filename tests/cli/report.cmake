# vpsim run --stats-interval, vpsim plot and vpsim report (docs/report.md), with real runs, the
# real plot script (matplotlib) and the report opened in headless Chromium.
# Invoked by ctest: cmake -DVPSIM=... -DSRC=... -DWORK=... -DPYTHON=... -DCHROMIUM=... -P tests/cli/report.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(SCENE ${SRC}/examples/scenes/skinning.json)

include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)  # expect(code regex args...)
function(python what)
  execute_process(COMMAND ${PYTHON} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                  WORKING_DIRECTORY ${WORK})
  if(NOT rc EQUAL 0)
    message(SEND_ERROR "${what}: exit ${rc}\n${out}${err}")
  else()
    message(STATUS "ok: ${what} ${out}")
  endif()
endfunction()
function(absent path why)
  if(EXISTS ${path})
    message(SEND_ERROR "${why}: ${path} exists (a failed command must leave no output)")
  endif()
endfunction()

# --- the time series: written with --out, the same results as without it
expect(0 "-" run ${SCENE} --quiet --out ${WORK}/plain)
expect(0 "-" run ${SCENE} --quiet --out ${WORK}/ts --stats-interval 500)
absent(${WORK}/plain/timeseries.csv "no --stats-interval")
file(STRINGS ${WORK}/ts/timeseries.csv ts_lines)
list(GET ts_lines 0 ts_header)
if(NOT ts_header MATCHES "^interval_begin,interval_end,front_end.busy,front_end.idle,front_end.stalled.draw_queue_full,front_end.stalled.constant_queue_full,constant_loader.busy,.*,tessellator.busy,.*,output.stalled.vertex_in_flight,.*vertex_fetch_to_alu.occupancy,vertex_fetch_to_alu.full,vertex_fetch_to_alu.pushes")
  message(SEND_ERROR "timeseries.csv header: ${ts_header}")
endif()
python("stats.json equal with and without --stats-interval" -c "
import json, sys
a, b = (json.load(open(sys.argv[k] + '/stats.json')) for k in (1, 2))
for s in (a, b):
    for k in ('host_seconds', 'cycles_per_host_second'):
        s['summary'].pop(k)
assert a == b, 'stats.json differs'
assert a['cycles'] == b['cycles'] > 0
rows = open(sys.argv[2] + '/timeseries.csv').read().split()[1:]
assert len(rows) == (a['cycles'] + 499) // 500, len(rows)
assert rows[-1].split(',')[1] == str(a['cycles'])
" ${WORK}/plain ${WORK}/ts)
expect(2 "needs --out" run ${SCENE} --quiet --stats-interval 100)
expect(2 "stats-interval" run ${SCENE} --quiet --out ${WORK}/zero --stats-interval 0)
absent(${WORK}/zero/stats.json "--stats-interval 0")

# --- a single run's report: bars per unit, utilisation, stalls and occupancy over time
expect(0 "-" report ${WORK}/ts -o ${WORK}/run-report.html)
file(READ ${WORK}/run-report.html html)
foreach(s "per-unit busy, stalled and idle cycles" "utilisation over time" "channel occupancy over time" "vertex_alu" "dependency")
  if(NOT html MATCHES "${s}")
    message(SEND_ERROR "run-report.html has no '${s}'")
  endif()
endforeach()
python("run report in Chromium" ${SRC}/tests/report_browser_check.py ${CHROMIUM} ${WORK}/run-report.html
       ${WORK}/run-report.png 4)
# Without timeseries.csv: the bars, and the note that says how to get the rest.
expect(0 "-" report ${WORK}/plain -o ${WORK}/plain-report.html)
file(READ ${WORK}/plain-report.html html)
if(NOT html MATCHES "run with --stats-interval N")
  message(SEND_ERROR "plain-report.html does not say how to get the time series")
endif()

# --- a sweep directory: results.csv from four real runs (engines x co-issue)
set(points "")
foreach(e 1 2)
  foreach(c off pairs)
    expect(0 "-" run ${SCENE} --quiet --set vertex_alu.engines=${e} --set vertex_alu.coissue=${c}
           --out ${WORK}/points/e${e}_${c})
    list(APPEND points ${WORK}/points/e${e}_${c})
  endforeach()
endforeach()
file(MAKE_DIRECTORY ${WORK}/sweep)
python("results.csv from the runs" ${SRC}/tests/report_results_csv.py ${WORK}/sweep/results.csv
       vertex_alu.engines,vertex_alu.coissue ${points})
set(SW ${WORK}/sweep)
expect(0 "-" plot ${SW} --x vertex_alu.engines --y cycles_per_vertex --hue vertex_alu.coissue -o ${SW}/lines.png)
expect(0 "-" plot ${SW} --x vertex_alu.engines --y cycles --heatmap vertex_alu.coissue -o ${SW}/heat.png)
expect(0 "-" plot ${SW} --x vertex_alu.coissue --y vertex_alu --stalls -o ${SW}/stalls.png)
python("the plots are PNG images" -c "
import sys
from PIL import Image
for p in sys.argv[1:]:
    with Image.open(p) as im:
        assert im.format == 'PNG' and im.size[0] > 400 and im.size[1] > 300, (p, im.format, im.size)
        assert len(im.convert('RGB').getcolors(1 << 20)) > 16, p + ': blank'
" ${SW}/lines.png ${SW}/heat.png ${SW}/stalls.png)
expect(0 "-" report ${SW} -o ${SW}/report.html)
file(READ ${SW}/report.html html)
foreach(s "vertex_alu.engines=2, vertex_alu.coissue=pairs" "<td class=\"t\">vertex_alu.coissue=off</td>" "cycles_per_vertex against vertex_alu.engines"
          "data-kind=\"heatmap\"" "busy, stalled and idle cycles by" "The bottleneck's cause")
  if(NOT html MATCHES "${s}")
    message(SEND_ERROR "sweep report.html has no '${s}'")
  endif()
endforeach()
python("sweep report in Chromium" ${SRC}/tests/report_browser_check.py ${CHROMIUM} ${SW}/report.html
       ${SW}/report.png 5)

# --- the browser check itself catches a script error and a blank page
file(WRITE ${WORK}/bad.html "<html><body><p>text</p><script>throw new Error('boom')</script></body></html>\n")
file(WRITE ${WORK}/blank.html "<html><body></body></html>\n")
foreach(page bad blank)
  execute_process(COMMAND ${PYTHON} ${SRC}/tests/report_browser_check.py ${CHROMIUM} ${WORK}/${page}.html
                  ${WORK}/${page}.png 0 RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0)
    message(SEND_ERROR "the browser check passed ${page}.html\n${out}${err}")
  endif()
endforeach()

# --- bad input: a clear error, exit 2, no output file
expect(2 "--y nosuch: .*results.csv has no such metric column; its columns: scene, vertex_alu.engines"
       plot ${SW} --x vertex_alu.engines --y nosuch -o ${WORK}/bad1.png)
absent(${WORK}/bad1.png "plot --y nosuch")
expect(2 "--x vertex_alu.nosuch: .*no such axis column" plot ${SW} --x vertex_alu.nosuch --y cycles -o ${WORK}/bad2.png)
absent(${WORK}/bad2.png "plot --x unknown")
expect(2 "--y output: .*no cycle columns|--y nosuchunit: .*no cycle columns"
       plot ${SW} --x vertex_alu.engines --y nosuchunit --stalls -o ${WORK}/bad3.png)
expect(2 "no results.csv" plot ${WORK}/ts --x vertex_alu.engines --y cycles -o ${WORK}/bad4.png)
absent(${WORK}/bad4.png "plot on a run directory")
expect(2 "written as .png, .svg or .pdf" plot ${SW} --x vertex_alu.engines --y cycles -o ${WORK}/bad5.gif)
absent(${WORK}/bad5.gif "plot -o .gif")
file(MAKE_DIRECTORY ${WORK}/empty)
expect(2 "neither a sweep directory" report ${WORK}/empty -o ${WORK}/bad6.html)
absent(${WORK}/bad6.html "report on an empty directory")
expect(2 "no such directory" report ${WORK}/missing -o ${WORK}/bad7.html)
expect(2 "cannot write" report ${WORK}/ts -o ${WORK}/no/such/dir/r.html)
file(MAKE_DIRECTORY ${WORK}/ragged)
file(WRITE ${WORK}/ragged/results.csv "scene,cycles\na.json,10\nb.json\n")
expect(2 "results.csv: line 3 has 1 fields, the header 2" report ${WORK}/ragged -o ${WORK}/bad8.html)
absent(${WORK}/bad8.html "report on a ragged results.csv")
file(MAKE_DIRECTORY ${WORK}/badstats)
file(WRITE ${WORK}/badstats/stats.json "{\"schema\": \"other\"}\n")
expect(2 "not a vpsim stats.json" report ${WORK}/badstats -o ${WORK}/bad9.html)
expect(2 "-" plot ${SW} --y cycles -o ${WORK}/bad10.png)
