# Streaming stimulus (docs/xcheck.md, "Streams: arrays back to back"): one behaviour per ctest,
# chosen by -DCASE=...; the planted variants of tests/rtl_variants/ are Verilated into ${CACHE_DIR}
# (the workflow tests' cache: built once). Cases that need a failing stream's file take it from the
# `caught_*` cases through ${SHARED} (ctest fixtures order them).
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)
set(V ${VARIANTS})
set(CACHE --rtl-cache ${CACHE_DIR})
file(MAKE_DIRECTORY ${WORK})

if(CASE STREQUAL "builtin_passes")
  # The built-in RTL keeps the contract across boundaries: no mismatch, coverage complete.
  expect(0 "back to back in streams of 8.*mismatches: 0\ncoverage: complete" xcheck --no-corpus --random 3000 --stream 8 --seed 3)
elseif(CASE MATCHES "^passes_without_stream_(b2bbug|b2bstate)$")
  # Each planted variant passes the cross-check that waits for an array's final event (corpus and
  # random arrays): its bug is only visible across a boundary.
  expect(0 "mismatches: 0\ncoverage: complete" xcheck --rtl ${V}/decl_decoder_fsm_${CMAKE_MATCH_1}.sv ${CACHE} --random 4000 --seed 1)
elseif(CASE MATCHES "^caught_(b2bbug|b2bstate)$")
  # Caught by --stream, and shrunk to a stream of two arrays, written as a stream file.
  set(v ${CMAKE_MATCH_1})
  file(REMOVE_RECURSE ${SHARED}/${v})
  run(r xcheck --rtl ${V}/decl_decoder_fsm_${v}.sv ${CACHE} --no-corpus --random 400 --stream 8 --seed 1 --show 1
      --out ${SHARED}/${v})
  if(NOT r_rc EQUAL 1 OR NOT r MATCHES "MISMATCH random stream 0 of --seed 1 --stream 8 \\(arrays 0-7\\)")
    message(FATAL_ERROR "${v}: expected a mismatch in stream 0, exit ${r_rc}\n${r}")
  endif()
  file(GLOB f ${SHARED}/${v}/mismatches/xcheck-mismatch-seed1-stream0-0.stream)
  if(NOT f)
    message(FATAL_ERROR "${v}: no stream file\n${r}")
  endif()
  file(STRINGS ${f} arrays REGEX "^// stream-array ")
  list(LENGTH arrays n)
  if(NOT n EQUAL 2 OR NOT r MATCHES "shrunk to 2 arrays")
    message(FATAL_ERROR "${v}: shrunk to ${n} arrays, not 2\n${r}")
  endif()
elseif(CASE MATCHES "^replay_exact_(b2bbug|b2bstate)$")
  # The stream file's own replay (its header) gives exactly the difference the shrinker recorded.
  set(v ${CMAKE_MATCH_1})
  set(f ${SHARED}/${v}/mismatches/xcheck-mismatch-seed1-stream0-0.stream)
  file(STRINGS ${f} shrunk REGEX "^// shrunk: ")
  file(STRINGS ${f} line REGEX "^// replay this file: ")
  string(REGEX REPLACE "^// shrunk: " "" shrunk "${shrunk}")
  string(REGEX REPLACE "^// replay this file: vpsim " "" line "${line}")
  separate_arguments(args UNIX_COMMAND "${line}")
  run(r ${args} ${CACHE} --out ${WORK}/replay)
  string(FIND "${r}" "\n  ${shrunk}\n" at)
  if(NOT r_rc EQUAL 1 OR at EQUAL -1)
    message(FATAL_ERROR "${v}: the replay of ${f} (exit ${r_rc}) does not show '${shrunk}'\n${r}")
  endif()
  # ... and the built-in RTL passes the same file.
  expect(0 "mismatches: 0" xcheck --stream-file ${f})
elseif(CASE STREQUAL "only_replays_stream")
  # --only I with --stream replays stream I alone, with the same difference as in the full run.
  run(all xcheck --rtl ${V}/decl_decoder_fsm_b2bbug.sv ${CACHE} --no-corpus --random 80 --stream 8 --seed 1 --show 0)
  string(REGEX MATCH "first: random stream ([0-9]+) [^:]*: ([^\n]*)" m "${all}")
  set(i ${CMAKE_MATCH_1})
  set(d "${CMAKE_MATCH_2}")
  if(m STREQUAL "")
    message(FATAL_ERROR "no failing stream\n${all}")
  endif()
  run(one xcheck --rtl ${V}/decl_decoder_fsm_b2bbug.sv ${CACHE} --no-corpus --seed 1 --stream 8 --only ${i} --show 0)
  string(FIND "${one}" "${d}" at)
  if(NOT one_rc EQUAL 1 OR at EQUAL -1 OR NOT one MATCHES "random stream ${i} of seed 1 \\(8 arrays back to back\\)")
    message(FATAL_ERROR "--only ${i}: exit ${one_rc}, expected '${d}'\n${one}")
  endif()
elseif(CASE STREQUAL "bad_stream_file")
  # A malformed stream file is an error naming the file and the line (exit 2).
  file(WRITE ${WORK}/bad.stream "// bp-seed: 0x1\n// stream-array strict gap 0\nD3DVSD_END()\n// stream-array sloppy gap 1\n0x1\n")
  expect(2 "bad.stream:4:1: .*stream-array strict\\|lenient gap N" xcheck --stream-file ${WORK}/bad.stream)
  file(WRITE ${WORK}/empty.stream "// bp-seed: 0x1\n// stream-array strict gap 0\n// stream-array strict gap 0\n0x1\n")
  expect(2 "empty.stream:2:1: error: this stream array has no tokens" xcheck --stream-file ${WORK}/empty.stream)
elseif(CASE STREQUAL "options_refused")
  # Options that do not apply to streams are errors (exit 2), never ignored.
  expect(2 "--jobs 2 does not apply" xcheck --no-corpus --random 100 --stream 4 --jobs 2)
  expect(2 "--dump-arrays exports single arrays" xcheck --no-corpus --random 100 --stream 4 --dump-arrays ${WORK}/d)
  file(WRITE ${WORK}/one.stream "// bp-seed: 0x1\n// stream-array strict gap 0\nD3DVSD_END()\n")
  expect(2 "--stream-file checks the stream in the file: --seed does not apply" xcheck --stream-file ${WORK}/one.stream --seed 4)
else()
  message(FATAL_ERROR "unknown CASE ${CASE}")
endif()
