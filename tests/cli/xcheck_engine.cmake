# The vertex fetch on the shared cross-check engine (issue 34, items 1 and 6; docs/xcheck.md, "One
# engine, two units"): JUnit, triage groups keyed on the first diverging vertex, the shrunk case
# written as a file and replayed exactly, refusals. One behaviour per ctest, chosen by -DCASE=...;
# the planted tests/rtl_variants/vertex_fetch_bug.sv is Verilated into ${CACHE_DIR} once (the
# `vf_caught` case, a fixture of the cases that use its output in ${SHARED}).
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)
set(V ${VARIANTS})
set(CACHE --rtl-cache ${CACHE_DIR})
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

if(CASE STREQUAL "vf_junit_builtin")
  # The built-in RTL: a JUnit report with each directed case, each 1000 random cases and the
  # functional coverage, none failing.
  expect(0 "coverage: every bin hit" xcheck --unit vertex_fetch --random 1500 --seed 5 --junit ${WORK}/j.xml)
  file(READ ${WORK}/j.xml x)
  foreach(want "classname=\"xcheck.vertex_fetch.directed\" name=\"directed flush\""
               "classname=\"xcheck.vertex_fetch.random\" name=\"random cases 0-999 \\(seed 5\\)\""
               "classname=\"xcheck.vertex_fetch.random\" name=\"random cases 1000-1499 \\(seed 5\\)\""
               "classname=\"xcheck.coverage\" name=\"functional coverage\"" "failures=\"0\"")
    if(NOT x MATCHES "${want}")
      message(SEND_ERROR "the JUnit report lacks ${want}:\n${x}")
    endif()
  endforeach()
  if(x MATCHES "<failure")
    message(SEND_ERROR "a passing run's JUnit report has a failure:\n${x}")
  endif()
elseif(CASE STREQUAL "vf_caught")
  # The planted bug (D3DCOLOR's green and blue from the wrong bytes): every mismatch in one triage
  # group, the JUnit case failing with the first one, the shrunk case written as a file.
  file(REMOVE_RECURSE ${SHARED})
  run(r xcheck --unit vertex_fetch --rtl ${V}/vertex_fetch_bug.sv ${CACHE} --no-directed --random 400 --seed 3
      --latency-max 20 --json --out ${SHARED} --junit ${SHARED}/j.xml)
  if(NOT r_rc EQUAL 1)
    message(FATAL_ERROR "the planted bug: exit ${r_rc}, expected 1\n${r}")
  endif()
  string(JSON n GET "${r_out}" mismatches)
  string(JSON groups LENGTH "${r_out}" mismatch_groups)
  string(JSON count GET "${r_out}" mismatch_groups 0 count)
  string(JSON sig GET "${r_out}" mismatch_groups 0 signature)
  if(NOT groups EQUAL 1 OR NOT count EQUAL n OR NOT sig STREQUAL "register value (D3DCOLOR)")
    message(SEND_ERROR "${n} mismatches in ${groups} groups, the first '${sig}' of ${count}: one bug is one group")
  endif()
  string(JSON file GET "${r_out}" failures 0 file)
  if(NOT EXISTS ${WORK}/${file} AND NOT EXISTS ${file})
    message(SEND_ERROR "the shrunk case file '${file}' was not written")
  endif()
  file(READ ${SHARED}/j.xml x)
  if(NOT x MATCHES "<failure message=\"${n} of 400 cases mismatch: random case [0-9]+ of --seed 3")
    message(SEND_ERROR "the JUnit report lacks the failure of ${n} of 400 cases:\n${x}")
  endif()
elseif(CASE STREQUAL "vf_case_file_replays")
  # The shrunk case file's own replay command gives exactly the difference recorded in it.
  file(GLOB files ${SHARED}/mismatches/vf-seed3-case*.json)
  list(GET files 0 f)
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
  # ... and the built-in RTL passes the same case.
  expect(0 "cases: 1  vertices: [0-9]+  elements: [0-9]+  RTL cycles: [0-9]+  mismatches: 0" xcheck --unit vertex_fetch --case ${f})
elseif(CASE STREQUAL "vf_case_refusals")
  # --case FILE holds the one case to check: options that would change it are refused; a bad
  # file is refused naming it and the rule; --case is a vertex fetch option.
  file(WRITE ${WORK}/bad.json "{\"format\": \"vpsim vertex fetch case 1\", \"seed\": -1}")
  expect(2 "--seed does not apply with --case" xcheck --unit vertex_fetch --case ${WORK}/bad.json --seed 4)
  expect(2 "--latency-max does not apply with --case" xcheck --unit vertex_fetch --case ${WORK}/bad.json --latency-max 4)
  expect(2 "bad.json: \"seed\" must be an unsigned integer" xcheck --unit vertex_fetch --case ${WORK}/bad.json)
  expect(2 "--case does not apply to the declaration decoder" xcheck --case ${WORK}/bad.json)
elseif(CASE STREQUAL "array_pin_groups")
  # Item 6: the decoder's arrays (not only streams) are grouped by the first diverging pins too. The
  # back-pressure bug flips the value of an event held 8 cycles: 21 signatures (one per event kind
  # and rule), fewer pin groups, and every mismatch in one of them.
  run(r xcheck --rtl ${V}/decl_decoder_bpbug.sv ${CACHE} --no-corpus --random 2000 --seed 1 --out-ready 0.2 --json)
  if(NOT r_rc EQUAL 1)
    message(FATAL_ERROR "the back-pressure bug: exit ${r_rc}, expected 1\n${r}")
  endif()
  string(JSON n GET "${r_out}" mismatches)
  string(JSON sigs LENGTH "${r_out}" mismatch_groups)
  string(JSON pins LENGTH "${r_out}" pin_groups)
  set(sum 0)
  math(EXPR last "${pins} - 1")
  foreach(i RANGE ${last})
    string(JSON c GET "${r_out}" pin_groups ${i} count)
    math(EXPR sum "${sum} + ${c}")
  endforeach()
  if(NOT pins LESS sigs OR NOT sum EQUAL n)
    message(SEND_ERROR "${n} mismatches: ${sigs} signatures, ${pins} pin groups holding ${sum}")
  else()
    message(STATUS "ok: ${n} mismatches, ${sigs} signatures, ${pins} pin groups")
  endif()
else()
  message(FATAL_ERROR "unknown CASE ${CASE}")
endif()
