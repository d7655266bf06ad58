# vpsim sweep (docs/sweep.md), one ctest per behaviour (tests/CMakeLists.txt, vpsim_cli_cases): a
# 12-point study (the fixture "study", in ${SHARED}/s1, read-only for the other cases) equals its
# points run one by one with `vpsim run --out`; run again it runs nothing; killed mid-way and run
# again it runs only the missing points; GNU parallel gives the same results.csv; bad input is a
# clear error with no results.csv; collect, --metric, presets as an axis.
# Invoked by ctest: cmake -DVPSIM=... -DSRC=... -DCASE=... -DSHARED=... -DWORK=... -P tests/cli/sweep.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(W ${SRC}/examples/workloads)
set(AXES --axis vertex_alu.engines=1,2 --axis vertex_alu.coissue=off,pairs,window)
set(SCENES --scene ${W}/point_light.json --scene ${W}/toon.json)
string(REPLACE ";" " " args "${SCENES} ${AXES}")

# sweep(<expected exit code> <regex on stderr or "-"> <output variable> args...)
function(sweep code regex var)
  execute_process(COMMAND ${VPSIM} sweep ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                  WORKING_DIRECTORY ${WORK})
  if(NOT rc EQUAL code)
    message(FATAL_ERROR "vpsim sweep ${ARGN}: exit ${rc}, expected ${code}\n${out}${err}")
  elseif(NOT regex STREQUAL "-" AND NOT "${out}${err}" MATCHES "${regex}")
    message(FATAL_ERROR "vpsim sweep ${ARGN}: output does not match '${regex}'\n${out}${err}")
  endif()
  message(STATUS "ok (exit ${rc}): vpsim sweep ${ARGN}")
  set(${var} "${out}${err}" PARENT_SCOPE)
endfunction()

# stats.json without the host timing (how fast this machine ran it, not a result).
function(stats_without_host file var)
  file(READ ${file} j)
  string(JSON j REMOVE "${j}" summary host_seconds)
  string(JSON j REMOVE "${j}" summary cycles_per_host_second)
  set(${var} "${j}" PARENT_SCOPE)
endfunction()

function(expect_no_results dir what)
  if(EXISTS ${dir}/results.csv OR EXISTS ${dir}/results.jsonl)
    message(FATAL_ERROR "${what}: a results table was left in ${dir}")
  endif()
endfunction()

# The fixture's study copied into this case's work directory (for cases that run into it again).
function(copy_study to)
  file(COPY ${SHARED}/s1/ DESTINATION ${WORK}/${to})
endfunction()

# --- The fixture: 12 points (2 scenes x 2 engine counts x 3 co-issue policies), every one run.
function(case_study)
  file(REMOVE_RECURSE ${SHARED})
  file(MAKE_DIRECTORY ${SHARED})
  set(WORK ${SHARED})  # sweep() runs in it
  sweep(0 "12 points: 12 run \\(12 ok, 0 failed\\), 0 already done" log ${SCENES} ${AXES} --jobs 2 --out s1)
endfunction()

# The 12 points = the points one by one (stats.json minus host timing, config.json).
function(case_points)
  file(READ ${SHARED}/s1/study.json study)
  string(JSON n LENGTH "${study}" points)
  if(NOT n EQUAL 12)
    message(FATAL_ERROR "study.json lists ${n} points, expected 12")
  endif()
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    string(JSON scene GET "${study}" points ${i} scene)
    string(JSON dir GET "${study}" points ${i} dir)
    string(JSON engines GET "${study}" points ${i} axes vertex_alu.engines)
    string(JSON coissue GET "${study}" points ${i} axes vertex_alu.coissue)
    execute_process(COMMAND ${VPSIM} run ${scene} --out one/${i} --quiet --set vertex_alu.engines=${engines}
                            --set vertex_alu.coissue=${coissue}
                    RESULT_VARIABLE rc WORKING_DIRECTORY ${WORK})
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "vpsim run ${scene} engines=${engines} coissue=${coissue}: exit ${rc}")
    endif()
    stats_without_host(${SHARED}/${dir}/stats.json a)
    stats_without_host(${WORK}/one/${i}/stats.json b)
    if(NOT a STREQUAL b)
      message(FATAL_ERROR "point ${i} (${scene} engines=${engines} coissue=${coissue}): the sweep's stats.json "
                          "differs from vpsim run's")
    endif()
    file(READ ${SHARED}/${dir}/config.json ca)
    file(READ ${WORK}/one/${i}/config.json cb)
    if(NOT ca STREQUAL cb)
      message(FATAL_ERROR "point ${i}: the sweep's config.json differs from vpsim run's")
    endif()
  endforeach()
  message(STATUS "ok: the 12 points equal vpsim run --out one by one (stats.json minus host timing, config.json)")
endfunction()

# The table: a header and one row per point; the axis, summary and per-unit columns are there.
function(case_table)
  file(READ ${SHARED}/s1/results.csv csv1)
  string(REGEX MATCHALL "\n" nl "${csv1}")
  list(LENGTH nl nrows)
  string(REGEX MATCH "^[^\n]*" header "${csv1}")
  if(NOT nrows EQUAL 13)
    message(FATAL_ERROR "results.csv has ${nrows} lines, expected 13")
  endif()
  foreach(col point scene repeat vertex_alu.engines vertex_alu.coissue cycles cycles_per_vertex acmr
              vertex_alu.busy vertex_alu.idle vertex_alu.stalled.dependency index_fetch.stalled.fetch_queue_full)
    if(NOT ",${header}," MATCHES ",${col},")
      message(FATAL_ERROR "results.csv has no column ${col}:\n${header}")
    endif()
  endforeach()
  if(",${header}," MATCHES ",host_seconds,")
    message(FATAL_ERROR "results.csv has the host timing column host_seconds")
  endif()
  file(READ ${SHARED}/s1/results.jsonl jsonl)
  string(REGEX MATCHALL "\n" nl "${jsonl}")
  list(LENGTH nl njrows)
  string(REGEX MATCH "^[^\n]*" j0 "${jsonl}")
  string(JSON c0 GET "${j0}" metrics cycles)
  string(JSON b0 GET "${j0}" units vertex_alu busy)
  if(NOT njrows EQUAL 12 OR NOT c0 GREATER 0 OR NOT b0 GREATER 0)
    message(FATAL_ERROR "results.jsonl: ${njrows} rows, first cycles ${c0}, vertex_alu busy ${b0}")
  endif()
endfunction()

# Resume: the same study again runs nothing.
function(case_rerun)
  copy_study(s1)
  sweep(0 "12 points: 0 run \\(0 ok, 0 failed\\), 12 already done" log ${SCENES} ${AXES} --out s1)
endfunction()

# Killed mid-way, it runs only the rest, and gives the same results.csv.
function(case_resume)
  file(READ ${SHARED}/s1/results.csv csv1)
  # The points run under tests/sweep_gate.sh: the first 3 run, the 4th waits at the gate, so the
  # sweep is killed with exactly 3 points done (no polling of a running sweep's progress).
  execute_process(
    COMMAND bash -c "GATE_PASS=3 GATE_DIR=gate2 ${VPSIM} sweep ${args} --jobs 1 --launcher ${SRC}/tests/sweep_gate.sh --out s2 2>s2.log & pid=$!
      until [ -e gate2/waiting.4 ]; do kill -0 $pid 2>/dev/null || break; sleep 0.02; done
      kill -TERM $pid; wait $pid; echo $?"
    OUTPUT_VARIABLE killed_rc OUTPUT_STRIP_TRAILING_WHITESPACE WORKING_DIRECTORY ${WORK})
  file(READ ${WORK}/s2.log klog)
  file(GLOB done2 ${WORK}/s2/points/*/stats.json)
  list(LENGTH done2 k)
  if(NOT killed_rc EQUAL 143 OR NOT k EQUAL 3 OR NOT klog MATCHES "interrupted \\(signal 15\\): 3 of 12")
    message(FATAL_ERROR "the killed sweep: exit ${killed_rc} (expected 143), ${k} points done (expected 3):\n${klog}")
  endif()
  expect_no_results(${WORK}/s2 "the killed sweep")
  math(EXPR rest "12 - ${k}")
  sweep(0 "12 points: ${rest} run \\(${rest} ok, 0 failed\\), ${k} already done" log ${SCENES} ${AXES} --jobs 2 --out s2)
  file(READ ${WORK}/s2/results.csv csv2)
  if(NOT csv1 STREQUAL csv2)
    message(FATAL_ERROR "the resumed sweep's results.csv differs from the uninterrupted one's")
  endif()
  message(STATUS "ok: killed after ${k} points, the second run ran the other ${rest}; same results.csv")
endfunction()

# A changed scene invalidates its points (and only them).
function(case_changed_scene)
  file(COPY ${W}/toon.json DESTINATION ${WORK}/scenes)
  file(COPY ${W}/shaders DESTINATION ${WORK}/scenes)
  sweep(0 "6 points: 6 run" log --scene scenes/toon.json ${AXES} --out s4)
  file(APPEND ${WORK}/scenes/toon.json " ")
  sweep(0 "6 points: 6 run \\(6 ok, 0 failed\\), 0 already done" log --scene scenes/toon.json ${AXES} --out s4)
endfunction()

# GNU parallel: the same results.csv, and its joblog.
function(case_parallel)
  file(READ ${SHARED}/s1/results.csv csv1)
  sweep(0 "12 points: 12 run \\(12 ok, 0 failed\\).*parallel backend" log ${SCENES} ${AXES} --backend parallel --jobs 2
        --out s3)
  file(READ ${WORK}/s3/results.csv csv3)
  if(NOT csv1 STREQUAL csv3)
    message(FATAL_ERROR "the parallel backend's results.csv differs from the local one's")
  endif()
  file(READ ${WORK}/s3/parallel.joblog joblog)
  string(REGEX MATCHALL "\n" nl "${joblog}")
  list(LENGTH nl njob)
  if(NOT njob EQUAL 13)
    message(FATAL_ERROR "parallel.joblog has ${njob} lines, expected a header and 12 jobs")
  endif()
  message(STATUS "ok: --backend parallel gives the same results.csv; joblog with 12 jobs")
endfunction()

# Bad axes: a clear error, nothing run, no results table.
function(case_bad_axes)
  sweep(2 "axis vertex_alu.nosuch: vertex_alu.nosuch: unknown parameter; valid keys: vertex_alu.engines \\(uint\\)" log
        ${SCENES} --axis vertex_alu.nosuch=1,2 --out bad1)
  expect_no_results(${WORK}/bad1 "unknown axis key")
  sweep(2 "axis nosuch.engines: .*valid units:" log ${SCENES} --axis nosuch.engines=1 --out bad1)
  sweep(2 "--axis vertex_alu.engines=: axis vertex_alu.engines has no values \\(an empty axis\\)" log
        ${SCENES} --axis vertex_alu.engines= --out bad1)
  sweep(2 "axis vertex_alu.engines: vertex_alu.engines: expected uint in \\[1, 64\\], got 0 \\(out of range\\)" log
        ${SCENES} --axis vertex_alu.engines=1,0 --out bad1)
  expect_no_results(${WORK}/bad1 "bad axis values")
  if(EXISTS ${WORK}/bad1/points)
    message(FATAL_ERROR "a study with a bad axis created point directories")
  endif()
endfunction()

# Bad study files and options: a clear error, nothing run, no results table.
function(case_bad_study)
  file(WRITE ${WORK}/empty_range.json [=[{"schema": "vpsim-study-1", "scenes": [],
 "axes": [{"key": "post_transform_cache.entries", "range": {"from": 8, "to": 0, "step": 4}}]}]=])
  sweep(2 "empty_range.json: /axes/0/range: from 8 to 0 with step 4 gives no values \\(an empty axis\\)" log
        empty_range.json --out bad1)
  file(WRITE ${WORK}/zip.json [=[{"schema": "vpsim-study-1", "scenes": ["nosuch.json"]}]=])
  sweep(2 "zip.json: /scenes/0: .*nosuch.json: no such scene file" log zip.json --out bad1)
  file(WRITE ${WORK}/zip.json [=[{"schema": "vpsim-study-1", "scenes": [],
 "axes": [{"zip": [{"key": "vertex_alu.engines", "values": [1, 2]}, {"key": "vertex_alu.contexts", "values": [3]}]}]}]=])
  sweep(2 "zip.json: /axes/0/zip/1: vertex_alu.contexts has 1 values, vertex_alu.engines has 2: zipped axes must have the same length"
        log zip.json --out bad1)
  file(WRITE ${WORK}/syntax.json "{\"schema\": \"vpsim-study-1\",\n \"scenes\": [}\n")
  sweep(2 "syntax.json: not valid JSON: .*line 2, column 13" log syntax.json --out bad1)
  sweep(2 "--backend nosuch: unknown backend; valid: local, parallel, slurm" log ${SCENES} --backend nosuch --out bad1)
  sweep(2 "--no-wait is for --backend slurm" log ${SCENES} --no-wait --out bad1)
  expect_no_results(${WORK}/bad1 "bad study files")
endfunction()

# A scene that fails: its points are recorded (exit status, message), the others run, exit 1; run
# again, only the failed points run (and fail again).
function(case_failing_scene)
  file(READ ${W}/toon.json t)
  string(REPLACE "\"shaders/toon.vsh\"" "\"${W}/shaders/toon.vsh\"" t "${t}")
  string(REGEX REPLACE "  {\"op\": \"SetStreamSource\"[^\n]*\n" "" t "${t}")
  file(WRITE ${WORK}/unbound.json "${t}")
  sweep(1 "2 of 4 points failed; no results table.*unbound.json vertex_alu.engines=1: exit 1: vpsim run: .*unbound.json: /commands/5: shader \"toon\": stream 0: not bound"
        log --scene ${W}/toon.json --scene unbound.json --axis vertex_alu.engines=1,2 --out bad2)
  expect_no_results(${WORK}/bad2 "a failing scene")
  file(GLOB ok2 ${WORK}/bad2/points/*/stats.json)
  file(GLOB st2 ${WORK}/bad2/points/*/exit_status)
  list(LENGTH ok2 nok2)
  list(LENGTH st2 nst2)
  if(NOT nok2 EQUAL 2 OR NOT nst2 EQUAL 4)
    message(FATAL_ERROR "a failing scene: ${nok2} points with stats.json (expected 2), ${nst2} exit_status files (4)")
  endif()
  sweep(1 "4 points: 2 run \\(0 ok, 2 failed\\), 2 already done" log
        --scene ${W}/toon.json --scene unbound.json --axis vertex_alu.engines=1,2 --out bad2)
endfunction()

# A read-only output directory (root writes through mode 0555, so then /sys, which refuses).
function(case_read_only_out)
  file(MAKE_DIRECTORY ${WORK}/ro)
  file(CHMOD ${WORK}/ro PERMISSIONS OWNER_READ OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  execute_process(COMMAND bash -c "touch ro/probe 2>/dev/null" RESULT_VARIABLE writable WORKING_DIRECTORY ${WORK})
  if(writable EQUAL 0)
    set(ro /sys)
  else()
    set(ro ${WORK}/ro)
  endif()
  sweep(2 "vpsim sweep: ${ro}(/points)?: cannot create the output directory" log ${SCENES} ${AXES} --out ${ro})
  expect_no_results(${ro} "a read-only output directory")
endfunction()

# The example studies resolve (every scene loads, every axis key and value is valid).
function(case_examples)
  foreach(s coissue_window_engines ptc_entries_index_order memory_latency_fetch_window)
    sweep(0 "-" log ${SRC}/examples/studies/${s}.json --list --out ex)
    string(REGEX MATCHALL "\n" lines "\n${log}")
    list(LENGTH lines npoints)
    math(EXPR npoints "${npoints} - 1")
    message(STATUS "ok: examples/studies/${s}.json: ${npoints} points")
  endforeach()
endfunction()

# The metrics to keep: only the kept columns (plus point, scene, repeat and the axes), the same
# values as the full table; a pattern that matches nothing is an error naming it.
function(case_metric)
  file(READ ${SHARED}/s1/results.csv csv1)
  string(REGEX MATCH "^[^\n]*" header "${csv1}")
  copy_study(s1)
  sweep(0 "-" log ${SCENES} ${AXES} --metric cycles_per_vertex --metric "vertex_alu.stalled.*" --out s1)
  file(READ ${WORK}/s1/results.csv csvm)
  string(REGEX MATCH "^[^\n]*" hm "${csvm}")
  if(NOT hm MATCHES "^point,scene,repeat,vertex_alu.engines,vertex_alu.coissue,cycles_per_vertex,vertex_alu.stalled.dependency,"
     OR hm MATCHES ",cycles," OR hm MATCHES "vertex_alu.busy" OR hm MATCHES "index_fetch")
    message(FATAL_ERROR "--metric: results.csv header is not the kept columns:\n${hm}")
  endif()
  string(REGEX MATCH "\n[^\n]*" row1 "${csv1}")
  string(REGEX MATCH "\n[^\n]*" rowm "${csvm}")
  string(REPLACE "," ";" row1 "${row1}")
  string(REPLACE "," ";" rowm "${rowm}")
  string(REPLACE "," ";" h1 "${header}")
  list(FIND h1 cycles_per_vertex i1)
  list(GET row1 ${i1} cpv1)
  list(GET rowm 5 cpvm)
  if(NOT cpv1 STREQUAL cpvm)
    message(FATAL_ERROR "--metric: cycles_per_vertex ${cpvm} differs from the full table's ${cpv1}")
  endif()
  file(WRITE ${WORK}/metrics.json "{\"schema\": \"vpsim-study-1\", \"scenes\": [\"${W}/toon.json\"],
 \"axes\": [{\"key\": \"vertex_alu.engines\", \"values\": [1, 2]}], \"metrics\": [\"acmr\", \"nosuch.*\"]}")
  sweep(2 "metrics: \"nosuch.\\*\" matches no metric of the points .*; the metrics: draws, references," log metrics.json
        --out m1)
  expect_no_results(${WORK}/m1 "a metric pattern that matches nothing")
  file(WRITE ${WORK}/metrics.json "{\"schema\": \"vpsim-study-1\", \"scenes\": [\"${W}/toon.json\"],
 \"axes\": [{\"key\": \"vertex_alu.engines\", \"values\": [1, 2]}], \"metrics\": []}")
  sweep(2 "metrics.json: /metrics: an empty list keeps no metric" log metrics.json --out m1)
  message(STATUS "ok: --metric and the study's \"metrics\" keep only the named columns")
endfunction()

# vpsim sweep collect: the same table from the points' directories; a point without its
# statistics is named (exit 1); not a sweep directory: exit 2.
function(case_collect)
  file(READ ${SHARED}/s1/results.csv csv1)
  copy_study(s2)
  file(REMOVE ${WORK}/s2/results.csv ${WORK}/s2/results.jsonl)
  execute_process(COMMAND ${VPSIM} sweep collect s2 RESULT_VARIABLE rc ERROR_VARIABLE err WORKING_DIRECTORY ${WORK})
  file(READ ${WORK}/s2/results.csv csvc)
  if(NOT rc EQUAL 0 OR NOT csvc STREQUAL csv1)
    message(FATAL_ERROR "vpsim sweep collect s2: exit ${rc}, or results.csv differs from the sweep's:\n${err}")
  endif()
  file(GLOB one_point LIST_DIRECTORIES true ${WORK}/s2/points/*)
  list(GET one_point 0 one_point)
  file(REMOVE ${one_point}/stats.json ${one_point}/exit_status)
  execute_process(COMMAND ${VPSIM} sweep collect s2 RESULT_VARIABLE rc ERROR_VARIABLE err WORKING_DIRECTORY ${WORK})
  if(NOT rc EQUAL 1 OR NOT err MATCHES "1 of 12 points failed; no results table.*did not run \\(no s2/points/")
    message(FATAL_ERROR "vpsim sweep collect with a point missing: exit ${rc} (expected 1):\n${err}")
  endif()
  expect_no_results(${WORK}/s2 "collect with a point missing")
  file(MAKE_DIRECTORY ${WORK}/scenes)
  execute_process(COMMAND ${VPSIM} sweep collect scenes RESULT_VARIABLE rc ERROR_VARIABLE err WORKING_DIRECTORY ${WORK})
  if(NOT rc EQUAL 2 OR NOT err MATCHES "scenes/study.json: cannot read it")
    message(FATAL_ERROR "vpsim sweep collect on a folder that is no sweep: exit ${rc} (expected 2):\n${err}")
  endif()
  message(STATUS "ok: vpsim sweep collect")
endfunction()

# One sweep at a time in a directory: a second one while the first runs is refused. The first
# is held at the gate (tests/sweep_gate.sh) before its first point until the second has tried.
function(case_busy_out)
  execute_process(
    COMMAND bash -c "GATE_PASS=0 GATE_DIR=gate5 ${VPSIM} sweep ${args} --jobs 1 --launcher ${SRC}/tests/sweep_gate.sh --out s5 2>s5.log & pid=$!
      until [ -e gate5/waiting.1 ]; do kill -0 $pid 2>/dev/null || break; sleep 0.02; done
      ${VPSIM} sweep ${args} --out s5 2>&1; echo rc=$?; kill -0 $pid && echo first-still-running
      touch gate5/release; wait $pid; echo first-rc=$?"
    OUTPUT_VARIABLE second WORKING_DIRECTORY ${WORK})
  if(NOT second MATCHES "s5: another vpsim process is writing this output directory.*rc=2"
     OR NOT second MATCHES "first-still-running" OR NOT second MATCHES "first-rc=0")
    message(FATAL_ERROR "a second sweep into a directory in use:\n${second}")
  endif()
endfunction()

# Presets as an axis: each point runs from its preset, the same cycles as `vpsim run --preset`,
# a preset column in results.csv; an unknown preset is refused with no results.
function(case_preset_axis)
  sweep(0 "3 run \\(3 ok" log --scene ${W}/point_light.json --axis preset=nv20,nv2a,nv25 --out pre)
  file(STRINGS ${WORK}/pre/results.csv rows)
  list(GET rows 0 header)
  if(NOT header MATCHES "^point,scene,repeat,preset,")
    message(FATAL_ERROR "no preset column: ${header}")
  endif()
  string(REPLACE "," ";" hcols "${header}")
  list(FIND hcols cycles ci)
  foreach(i 1 2 3)
    list(GET rows ${i} row)
    string(REPLACE "," ";" cols "${row}")
    list(GET cols 3 preset)
    list(GET cols ${ci} cycles)
    execute_process(COMMAND ${VPSIM} run ${W}/point_light.json --preset ${preset} --json OUTPUT_VARIABLE j RESULT_VARIABLE rc)
    string(JSON want GET "${j}" cycles)
    if(NOT rc EQUAL 0 OR NOT cycles STREQUAL want)
      message(FATAL_ERROR "axis preset=${preset}: ${cycles} cycles, vpsim run --preset ${preset}: ${want}")
    endif()
    list(APPEND seen ${cycles})
  endforeach()
  list(REMOVE_DUPLICATES seen)
  list(LENGTH seen nseen)
  if(NOT nseen EQUAL 3)
    message(FATAL_ERROR "the presets gave the same cycles: ${seen}")
  endif()
  sweep(2 "axis preset: .*nosuch" log --scene ${W}/point_light.json --axis preset=nv20,nosuch --out prebad)
  expect_no_results(${WORK}/prebad "an unknown preset")
  message(STATUS "ok: --axis preset")
endfunction()

if(NOT COMMAND case_${CASE})
  message(FATAL_ERROR "tests/cli/sweep.cmake: no case '${CASE}' (-DCASE=)")
endif()
cmake_language(CALL case_${CASE})
