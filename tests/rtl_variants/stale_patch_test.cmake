# A variant whose patch no longer applies fails loudly (tests/rtl_variants/apply.cmake): on a scratch
# copy of rtl/ whose line the patch changes was edited since, the apply step exits non-zero, names the
# patch and the RTL file, and leaves no variant behind; on the unedited copy it applies.
# cmake -DSRC=<project> -DWORK=<scratch dir> -P stale_patch_test.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/rtl)
set(patch ${SRC}/tests/rtl_variants/decl_decoder_bug.patch)
file(READ ${SRC}/rtl/decl_decoder.sv rtl)
function(apply out)
  execute_process(COMMAND ${CMAKE_COMMAND} -DPATCH=${patch} -DROOT=${WORK} -DOUT=${WORK}/${out}
                          -P ${SRC}/tests/rtl_variants/apply.cmake
                  RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
  set(rc ${rc} PARENT_SCOPE)
  set(all "${o}${e}" PARENT_SCOPE)
endfunction()
# The current RTL: the patch applies.
file(WRITE ${WORK}/rtl/decl_decoder.sv "${rtl}")
apply(fresh.sv)
if(NOT rc EQUAL 0 OR NOT EXISTS ${WORK}/fresh.sv)
  message(FATAL_ERROR "decl_decoder_bug.patch does not apply to today's rtl/decl_decoder.sv (exit ${rc}):\n${all}")
endif()
# The line the patch changes, edited: it must fail, naming both files, with no output.
string(REGEX REPLACE "(3'd7: +type_size = 5'd)8;" "\\18 ;" stale "${rtl}")
if(stale STREQUAL rtl)
  message(FATAL_ERROR "rtl/decl_decoder.sv has no SHORT4 type_size line to edit: update this test with the patch")
endif()
file(WRITE ${WORK}/rtl/decl_decoder.sv "${stale}")
apply(stale.sv)
if(rc EQUAL 0)
  message(FATAL_ERROR "the patch applied to an RTL file whose changed line was edited:\n${all}")
endif()
string(REGEX REPLACE "[ \n]+" " " flat "${all}")  # cmake's message() wraps long lines at spaces
if(NOT flat MATCHES "RTL variant [^ ]*tests/rtl_variants/decl_decoder_bug.patch no longer applies to [^ ]*/rtl/decl_decoder.sv .*Hunk #2 FAILED")
  message(FATAL_ERROR "the failure does not name the patch and the RTL file:\n${all}")
endif()
if(EXISTS ${WORK}/stale.sv OR EXISTS ${WORK}/stale.sv.tmp)
  message(FATAL_ERROR "a failed patch left a variant file behind")
endif()
message(STATUS "ok: ${all}")
