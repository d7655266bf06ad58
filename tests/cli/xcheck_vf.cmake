# vpsim xcheck --unit vertex_fetch (docs/vertex-fetch-rtl.md): the built-in RTL passes with every
# coverage bin hit; a planted bug (tests/rtl_variants/vertex_fetch_bug.sv) is caught, shrunk to one
# vertex, and its replay command (with every option that shaped the run) reproduces it; a design
# with the wrong ports is refused before it is compiled; --jobs does not change the report. Kept
# short for CI (one Verilated design): the mutation campaign is scripts/xcheck-vf-mutants.sh, the
# code coverage tests/cli/xcheck_vf_coverage.cmake.
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(V ${VARIANTS})  # tests/rtl_variants/ made in the build tree (tests/rtl_variants/variants.cmake)
set(CACHE --rtl-cache ${CACHE_DIR})  # the tests' shared RTL cache (tests/CMakeLists.txt)

expect(0 "mismatches: 0.*coverage: every bin hit" xcheck --unit vertex_fetch --random 1500 --seed 5 --jobs 2)

# --jobs 1 and 2 check the same cases with the same result (the cycles included).
foreach(j 1 2)
  execute_process(COMMAND ${VPSIM} xcheck --unit vertex_fetch --random 2500 --seed 9 --jobs ${j} --json
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out WORKING_DIRECTORY ${WORK})
  string(JSON c${j} GET "${out}" cycles)
  string(JSON v${j} GET "${out}" vertices)
endforeach()
if(NOT c1 STREQUAL c2 OR NOT v1 STREQUAL v2)
  message(SEND_ERROR "--jobs 1 gave ${v1} vertices / ${c1} cycles, --jobs 2 gave ${v2} / ${c2}")
endif()

# The planted bug, with fixed timing options that the replay command must carry.
execute_process(COMMAND ${VPSIM} xcheck --unit vertex_fetch --rtl ${V}/vertex_fetch_bug.sv ${CACHE} --no-directed
                        --random 400 --seed 3 --latency-max 20 --req-ready 0.5 --json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err WORKING_DIRECTORY ${WORK})
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "the planted vertex fetch bug: exit ${rc}, expected 1\n${out}${err}")
endif()
string(JSON replay GET "${out}" failures 0 replay)
string(JSON what GET "${out}" failures 0 first_difference)
string(JSON nshrunk LENGTH "${out}" failures 0 shrunk vertices)
string(JSON reg GET "${out}" failures 0 register)
if(NOT replay MATCHES "--seed 3 --only [0-9]+ --no-directed --latency-max 20 --req-ready 0.5 --rtl [^ ]*vertex_fetch_bug.sv --rtl-cache")
  message(SEND_ERROR "replay command lacks an option of the run: ${replay}")
endif()
if(NOT nshrunk EQUAL 1 OR reg LESS 0)
  message(SEND_ERROR "the failure was shrunk to ${nshrunk} vertices (expected 1), register ${reg}")
endif()
# The replay command reproduces the same first difference.
string(REPLACE "vpsim " "" replay_args "${replay}")
separate_arguments(replay_list UNIX_COMMAND "${replay_args}")
execute_process(COMMAND ${VPSIM} ${replay_list} --json RESULT_VARIABLE rc2 OUTPUT_VARIABLE out2 WORKING_DIRECTORY ${WORK})
string(JSON what2 GET "${out2}" failures 0 first_difference)
if(NOT rc2 EQUAL 1 OR NOT what2 STREQUAL what)
  message(SEND_ERROR "the replay (${replay}) gave exit ${rc2} and '${what2}', expected 1 and '${what}'")
else()
  message(STATUS "ok: the replay reproduces: ${what}")
endif()

# Ports: refused before anything is compiled, every difference named.
expect(2 "vertex fetch unit.s port contract.*mem_req_words is 3 bits wide, the contract says 2"
       xcheck --unit vertex_fetch --rtl ${V}/vertex_fetch_badports.sv ${CACHE} --random 10)
# Bad timing options.
expect(2 "latency-max 2 is less than --latency-min 5" xcheck --unit vertex_fetch --latency-min 5 --latency-max 2)

# --mutants: its input errors (a mutation campaign Verilates one yosys netlist per mutant, ~15 s
# each here: it is scripts/xcheck-vf-mutants.sh, with its figures in docs/vertex-fetch-rtl.md).
expect(2 "--mutants works on one source file \\(got 2 --rtl files\\)"
       xcheck --unit vertex_fetch --mutants 1 --rtl ${V}/vertex_fetch_bug.sv --rtl ${V}/vertex_fetch_badports.sv)
expect(2 "--mutants with --rtl needs --top NAME" xcheck --unit vertex_fetch --mutants 1 --rtl ${V}/vertex_fetch_bug.sv)
