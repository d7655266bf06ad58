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
elseif(CASE STREQUAL "jobs_same_report")
  # Streams are cases of the cross-check engine: --jobs 2 checks them on two decoders and reports
  # exactly what one thread does (the planted variant's mismatches, groups and shrunk streams).
  foreach(j 1 2)
    run(r${j} xcheck --rtl ${V}/decl_decoder_fsm_b2bbug.sv ${CACHE} --no-corpus --random 3000 --stream 4 --seed 2
        --show 2 --jobs ${j} --out ${WORK}/o${j} --json)
    string(REGEX REPLACE "\"[a-z_]*seconds[a-z_]*\": [0-9.e+-]+" "" r${j} "${r${j}_out}")
    string(REGEX REPLACE "${WORK}/o${j}" "" r${j} "${r${j}}")
    string(REGEX REPLACE "\"arrays_per_second\": [0-9.e+-]+" "" r${j} "${r${j}}")
  endforeach()
  if(NOT r1_rc EQUAL 1 OR NOT r1 MATCHES "\"mismatches\": [1-9]")
    message(FATAL_ERROR "the variant was not caught (exit ${r1_rc})\n${r1_out}${r1_err}")
  endif()
  if(NOT r1 STREQUAL r2)
    message(FATAL_ERROR "--jobs 2 reported otherwise than --jobs 1\n--- 1:\n${r1}\n--- 2:\n${r2}")
  endif()
elseif(CASE STREQUAL "bad_stream_file")
  # A malformed stream file is an error naming the file and the line (exit 2).
  file(WRITE ${WORK}/bad.stream "// bp-seed: 0x1\n// stream-array strict gap 0\nD3DVSD_END()\n// stream-array sloppy gap 1\n0x1\n")
  expect(2 "bad.stream:4:1: .*stream-array strict\\|lenient gap N" xcheck --stream-file ${WORK}/bad.stream)
  file(WRITE ${WORK}/empty.stream "// bp-seed: 0x1\n// stream-array strict gap 0\n// stream-array strict gap 0\n0x1\n")
  expect(2 "empty.stream:2:1: error: this stream array has no tokens" xcheck --stream-file ${WORK}/empty.stream)
elseif(CASE STREQUAL "options_refused")
  # Options that do not apply to streams are errors (exit 2), never ignored.
  expect(2 "--dump-arrays exports single arrays" xcheck --no-corpus --random 100 --stream 4 --dump-arrays ${WORK}/d)
  file(WRITE ${WORK}/one.stream "// bp-seed: 0x1\n// stream-array strict gap 0\nD3DVSD_END()\n")
  expect(2 "--stream-file checks the stream in the file: --seed does not apply" xcheck --stream-file ${WORK}/one.stream --seed 4)
# The vertex fetch's streams (--unit vertex_fetch --stream K): draws back to back, each stream one
# case whose later draws carry their idle gap (docs/xcheck.md, "The vertex fetch: draws back to back").
elseif(CASE STREQUAL "vf_builtin_passes")
  # The built-in RTL keeps the contract across draw boundaries: no mismatch, every bin hit.
  expect(0 "random streams of 4 draws back to back.*\ncases: 327  .*mismatches: 0\n.*coverage: every bin hit"
         xcheck --unit vertex_fetch --random 1200 --stream 4 --seed 3)
elseif(CASE STREQUAL "vf_caught_b2bbug")
  # The planted variant is caught by --stream 4, shrunk to two draws (the second one back to back:
  # gap 0) and written as a case file.
  file(REMOVE_RECURSE ${SHARED}/vf)
  run(r xcheck --unit vertex_fetch --rtl ${V}/vertex_fetch_b2bbug.sv ${CACHE} --no-directed --random 400 --stream 4
      --seed 1 --json --out ${SHARED}/vf)
  if(NOT r_rc EQUAL 1)
    message(FATAL_ERROR "vertex_fetch_b2bbug: exit ${r_rc}, expected 1\n${r}")
  endif()
  string(JSON origin GET "${r_out}" failures 0 origin)
  string(JSON file GET "${r_out}" failures 0 file)
  string(JSON then LENGTH "${r_out}" failures 0 shrunk then)
  string(JSON gap GET "${r_out}" failures 0 shrunk then 0 gap)
  if(NOT origin STREQUAL "stream" OR NOT then EQUAL 1 OR NOT gap EQUAL 0 OR NOT EXISTS ${file})
    message(FATAL_ERROR "vertex_fetch_b2bbug: the first failure is a '${origin}', shrunk to 1 + ${then} draws "
                        "(later gap ${gap}), file '${file}'; expected a stream shrunk to 2 draws back to back, written\n${r_out}")
  endif()
  file(WRITE ${SHARED}/vf/file.txt "${file}")
elseif(CASE STREQUAL "vf_pin_group_b2bbug")
  # One bug, one pin group (issue 34 item 6): the variant's mismatches have several signatures (the
  # type of the element at the first wrong register), but with the memory port checked they all part
  # from the golden side first at a request address (the stale stream registers), one pin group.
  run(r xcheck --unit vertex_fetch --rtl ${V}/vertex_fetch_b2bbug.sv ${CACHE} --no-directed --random 400 --stream 4
      --seed 1 --check-traffic --show 0 --json)
  string(JSON groups LENGTH "${r_out}" mismatch_groups)
  string(JSON pins LENGTH "${r_out}" pin_groups)
  string(JSON pin GET "${r_out}" pin_groups 0 pins)
  if(NOT r_rc EQUAL 1 OR groups LESS 2 OR NOT pins EQUAL 1 OR NOT pin STREQUAL "mem_req_addr")
    message(FATAL_ERROR "vertex_fetch_b2bbug: exit ${r_rc}, ${groups} signatures, ${pins} pin groups (first '${pin}'); "
                        "expected several signatures and the one pin group mem_req_addr\n${r_out}")
  endif()
elseif(CASE STREQUAL "vf_replay_exact_b2bbug")
  # The written case file's own replay command gives exactly the difference recorded in it ...
  file(READ ${SHARED}/vf/file.txt f)
  case_file_replays(${f})
  # ... and the built-in RTL passes the same two draws.
  expect(0 "cases: 1  .*mismatches: 0" xcheck --unit vertex_fetch --case ${f})
elseif(CASE STREQUAL "vf_only_replays_stream")
  # --only I with --stream replays stream I alone, with the same first difference as in the full run.
  run(all xcheck --unit vertex_fetch --rtl ${V}/vertex_fetch_b2bbug.sv ${CACHE} --no-directed --random 200 --stream 4
      --seed 1 --json --first-mismatch)
  string(JSON i GET "${all_out}" failures 0 index)
  string(JSON d GET "${all_out}" failures 0 first_difference)
  string(JSON replay GET "${all_out}" failures 0 replay)
  if(NOT replay MATCHES " --seed 1 --stream 4 --only ${i} --no-directed")
    message(FATAL_ERROR "the replay command '${replay}' does not name stream ${i}")
  endif()
  run(one xcheck --unit vertex_fetch --rtl ${V}/vertex_fetch_b2bbug.sv ${CACHE} --seed 1 --stream 4 --only ${i}
      --no-directed --json --first-mismatch)
  string(JSON d2 GET "${one_out}" failures 0 first_difference)
  string(JSON n GET "${one_out}" cases)
  if(NOT one_rc EQUAL 1 OR NOT n EQUAL 1 OR NOT d2 STREQUAL d)
    message(FATAL_ERROR "--only ${i}: exit ${one_rc}, ${n} cases, '${d2}'; expected 1, 1 and '${d}'\n${one}")
  endif()
elseif(CASE STREQUAL "vf_options_refused")
  # Options that do not apply to the fetch's streams are errors (exit 2), never ignored.
  file(WRITE ${WORK}/c.json "{}")
  expect(2 "--stream does not apply with --case" xcheck --unit vertex_fetch --case ${WORK}/c.json --stream 4)
  expect(2 "--stream-file does not apply to --unit vertex_fetch .*--case FILE" xcheck --unit vertex_fetch --stream-file ${WORK}/c.json)
  expect(2 "--stream: Value 1 not in range" xcheck --unit vertex_fetch --stream 1)
else()
  message(FATAL_ERROR "unknown CASE ${CASE}")
endif()
