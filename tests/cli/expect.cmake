# expect(<exit code> <regex on stdout+stderr or "-"> args...): runs ${VPSIM} args in ${WORK} and
# checks its exit status and output. Included by the CLI test scripts (cli_*.cmake), with run().
function(expect code regex)
  execute_process(COMMAND ${VPSIM} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                  WORKING_DIRECTORY ${WORK})
  set(all "${out}${err}")
  if(NOT rc EQUAL code)
    message(SEND_ERROR "vpsim ${ARGN}: exit ${rc}, expected ${code}\n${all}")
  elseif(NOT regex STREQUAL "-" AND NOT all MATCHES "${regex}")
    message(SEND_ERROR "vpsim ${ARGN}: output does not match '${regex}'\n${all}")
  else()
    message(STATUS "ok: vpsim ${ARGN}")
  endif()
endfunction()

# run(<var> args...): runs ${VPSIM} args in ${WORK}; stdout + stderr into <var>, stdout alone into
# <var>_out (e.g. a --json report), stderr into <var>_err, the exit status into <var>_rc.
function(run var)
  execute_process(COMMAND ${VPSIM} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                  WORKING_DIRECTORY ${WORK})
  set(${var} "${out}${err}" PARENT_SCOPE)
  set(${var}_out "${out}" PARENT_SCOPE)
  set(${var}_err "${err}" PARENT_SCOPE)
  set(${var}_rc ${rc} PARENT_SCOPE)
endfunction()

# case_file_replays(<file>): a vertex fetch case file's own replay command (its "replay") gives
# exactly the first difference recorded in it ("first_difference"), with exit 1.
function(case_file_replays f)
  file(READ ${f} text)
  string(JSON line GET "${text}" replay)
  string(JSON what GET "${text}" first_difference)
  string(REGEX REPLACE "^vpsim " "" line "${line}")
  separate_arguments(args UNIX_COMMAND "${line}")
  run(r ${args} --json --out ${WORK}/replay)
  string(JSON what2 GET "${r_out}" failures 0 first_difference)
  if(NOT r_rc EQUAL 1 OR NOT what2 STREQUAL what)
    message(FATAL_ERROR "the replay of ${f} gave exit ${r_rc} and '${what2}', expected 1 and '${what}'\n${r_err}")
  endif()
endfunction()
