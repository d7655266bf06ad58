# A zipped study's report (docs/report.md, "Zipped axes"): examples/studies/engines_contexts_zip.json
# (engines and contexts zipped, by co-issue) swept and reported; the zip is one axis in the
# figures and the heatmap, and in headless Chromium every text of every plot is apart, inside its
# image and at least 8 px (tests/report_text_check.py), a check shown to fail on a page whose labels
# overlap (tests/report_text_overlap.html).
# Invoked by ctest: cmake -DVPSIM=... -DSRC=... -DWORK=... -DPYTHON=... -DCHROMIUM=... -P tests/cli/report_zip.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)
expect(0 "-" sweep ${SRC}/examples/studies/engines_contexts_zip.json --jobs 2 --quiet --out ${WORK}/sw)
expect(0 "-" report ${WORK}/sw -o ${WORK}/report.html)
file(READ ${WORK}/report.html html)
foreach(s "cycles_per_vertex against vertex_alu.engines &amp; vertex_alu.contexts, one line per vertex_alu.coissue"
          "cycles_per_vertex over vertex_alu.engines &amp; vertex_alu.contexts x vertex_alu.coissue"
          "zipped \\(vary together, one axis, as study.json records\\)")
  if(NOT html MATCHES "${s}")
    message(SEND_ERROR "report.html has no '${s}'")
  endif()
endforeach()
if(html MATCHES "(against|one line per|bar per|over|by) vertex_alu\\.(engines|contexts)([,;<]| x | \\()")
  message(SEND_ERROR "report.html plots a zipped member on its own: '${CMAKE_MATCH_0}'")
endif()
execute_process(COMMAND ${PYTHON} ${SRC}/tests/report_text_check.py ${CHROMIUM} ${WORK}/report.html
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(SEND_ERROR "text check of the zipped study's report: exit ${rc}\n${out}${err}")
else()
  message(STATUS "${out}")
endif()
execute_process(COMMAND ${PYTHON} ${SRC}/tests/report_text_check.py ${CHROMIUM} ${SRC}/tests/report_text_overlap.html
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT out MATCHES "overlaps")
  message(SEND_ERROR "the text check passed a page whose labels overlap (exit ${rc})\n${out}${err}")
endif()
