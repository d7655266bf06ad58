# Options that do not apply are errors (exit 2), never ignored (issue 34, item 1): one behaviour per
# ctest, chosen by -DCASE=...
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)
file(MAKE_DIRECTORY ${WORK})
if(CASE STREQUAL "vf_refuses_decoder_options")
  # --dump-arrays with --unit vertex_fetch: refused before anything runs (--junit, --out,
  # --mismatch-dir, --wave-on-fail, --bins, the waivers, --stream and --show apply to both units
  # since the shared engine: xcheck_engine.cmake, xcheck_stream.cmake, tests/test_vf_xcheck.cpp).
  foreach(o "--dump-arrays;${WORK}/w")
    list(GET o 0 name)
    expect(2 "${name} does not apply to --unit vertex_fetch" xcheck --unit vertex_fetch --random 10 ${o})
  endforeach()
  if(EXISTS ${WORK}/w)
    message(SEND_ERROR "a refused run wrote its output")
  endif()
elseif(CASE STREQUAL "decoder_refuses_vf_options")
  expect(2 "--latency-min does not apply to the declaration decoder" xcheck --random 10 --latency-min 3)
elseif(CASE STREQUAL "mutants_refuse_wave_on_fail")
  # What reports one cross-check's failures (a waveform) does not apply to a campaign, for either
  # unit (--junit does: one test case per mutant, xcheck_mutants_junit.cmake).
  expect(2 "--wave-on-fail does not apply with --mutants" xcheck --mutants 2 --wave-on-fail ${WORK}/w)
  expect(2 "--wave-on-fail does not apply with --mutants" xcheck --unit vertex_fetch --mutants 2 --wave-on-fail ${WORK}/w)
  if(EXISTS ${WORK}/w)
    message(SEND_ERROR "a refused campaign wrote its output")
  endif()
elseif(CASE STREQUAL "mutants_refuse_report_options")
  # A campaign's report is its table (and --junit), each mutant checked against the whole budget:
  # --json, --only and --out are refused for either unit, before any mutant is made.
  foreach(o "--json" "--only;3" "--out;${WORK}/o")
    list(GET o 0 name)
    expect(2 "${name} does not apply with --mutants" xcheck --mutants 2 --mutants-dir ${WORK}/m ${o})
    expect(2 "${name} does not apply with --mutants" xcheck --unit vertex_fetch --mutants 2 --mutants-dir ${WORK}/m ${o})
  endforeach()
  # The fetch's latency bounds are checked before the campaign, not by each mutant's check.
  expect(2 "--latency-max 2 is less than --latency-min 5"
         xcheck --unit vertex_fetch --mutants 2 --mutants-dir ${WORK}/m --latency-min 5 --latency-max 2)
  if(EXISTS ${WORK}/m OR EXISTS ${WORK}/o)
    message(SEND_ERROR "a refused campaign wrote its output")
  endif()
elseif(CASE STREQUAL "only_header")
  # An --only run's header names the one array it checked, not the default 100,000.
  expect(0 "\\(random array 7 of seed 3\\)\n" xcheck --no-corpus --seed 3 --only 7)
else()
  message(FATAL_ERROR "unknown CASE ${CASE}")
endif()
