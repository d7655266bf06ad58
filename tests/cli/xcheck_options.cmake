# Options that do not apply are errors (exit 2), never ignored (issue 34, item 1): one behaviour per
# ctest, chosen by -DCASE=...
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)
file(MAKE_DIRECTORY ${WORK})
if(CASE STREQUAL "vf_refuses_decoder_options")
  # --show, --dump-arrays with --unit vertex_fetch: refused before anything runs (--junit, --out,
  # --mismatch-dir, --wave-on-fail, --bins, the waivers and --stream apply to both units since the
  # shared engine: xcheck_engine.cmake, xcheck_stream.cmake).
  foreach(o "--show;3" "--dump-arrays;${WORK}/w")
    list(GET o 0 name)
    expect(2 "${name} does not apply to --unit vertex_fetch" xcheck --unit vertex_fetch --random 10 ${o})
  endforeach()
  if(EXISTS ${WORK}/w)
    message(SEND_ERROR "a refused run wrote its output")
  endif()
elseif(CASE STREQUAL "decoder_refuses_vf_options")
  expect(2 "--latency-min does not apply to the declaration decoder" xcheck --random 10 --latency-min 3)
elseif(CASE STREQUAL "mutants_refuse_junit")
  expect(2 "--junit does not apply with --mutants" xcheck --mutants 2 --junit ${WORK}/m.xml)
  expect(2 "--junit does not apply" xcheck --unit vertex_fetch --mutants 2 --junit ${WORK}/m.xml)
elseif(CASE STREQUAL "only_header")
  # An --only run's header names the one array it checked, not the default 100,000.
  expect(0 "\\(random array 7 of seed 3\\)\n" xcheck --no-corpus --seed 3 --only 7)
else()
  message(FATAL_ERROR "unknown CASE ${CASE}")
endif()
