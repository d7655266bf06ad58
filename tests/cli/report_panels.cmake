# A 3-scene sweep's report (docs/report.md): one panel per scene in every figure, each panel's SVG
# naming its scene, and every panel of the first screen drawn in headless Chromium
# (tests/report_panels_check.py); --where keeps the panels per scene.
# Invoked by ctest: cmake -DVPSIM=... -DSRC=... -DWORK=... -DPYTHON=... -DCHROMIUM=... -P tests/cli/report_panels.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)
set(W ${SRC}/examples/workloads)
expect(0 "-" sweep --scene ${W}/point_light.json --scene ${W}/toon.json --scene ${W}/skin4.json
       --axis vertex_alu.engines=1,2 --axis vertex_alu.coissue=off,window --jobs 2 --quiet --out ${WORK}/sw)
expect(0 "-" report ${WORK}/sw -o ${WORK}/report.html)
file(READ ${WORK}/report.html html)
foreach(s "one panel per scene" "mean of up to 2 points over vertex_alu.coissue" "The bottleneck's cause"
          "chain followed")
  if(NOT html MATCHES "${s}")
    message(SEND_ERROR "report.html has no '${s}'")
  endif()
endforeach()
foreach(check "report.html;report.png;6" "where.html;where.png;4")
  list(GET check 0 page)
  list(GET check 1 shot)
  list(GET check 2 figures)
  if(page STREQUAL "where.html")
    expect(0 "-" report ${WORK}/sw --where vertex_alu.engines=2 -o ${WORK}/where.html)
  endif()
  execute_process(COMMAND ${PYTHON} ${SRC}/tests/report_panels_check.py ${CHROMIUM} ${WORK}/${page} ${WORK}/${shot}
                          point_light.json,toon.json,skin4.json ${figures}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(SEND_ERROR "panel check of ${page}: exit ${rc}\n${out}${err}")
  else()
    message(STATUS "${out}")
  endif()
endforeach()
# The check fails on a report whose figures blend the scenes into one panel.
file(READ ${WORK}/report.html html)
string(REGEX REPLACE "data-panels=\"3\"" "data-panels=\"1\"" blended "${html}")
file(WRITE ${WORK}/blended.html "${blended}")
execute_process(COMMAND ${PYTHON} ${SRC}/tests/report_panels_check.py ${CHROMIUM} ${WORK}/blended.html
                        ${WORK}/blended.png point_light.json,toon.json,skin4.json 1
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(SEND_ERROR "the panel check passed a report with one panel per figure")
endif()
expect(2 "--where vertex_alu.engines=9: no point" report ${WORK}/sw --where vertex_alu.engines=9 -o ${WORK}/bad.html)
if(EXISTS ${WORK}/bad.html)
  message(SEND_ERROR "report --where with no point left ${WORK}/bad.html")
endif()
