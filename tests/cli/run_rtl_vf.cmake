# vpsim run --rtl vertex_fetch (docs/vertex-fetch-rtl.md, "In the loop"): the built-in RTL, your
# own (here the planted bug, Verilated once into the tests' shared RTL cache), both RTL units at once, the
# model with the RTL's timing parameters, and the bad --rtl arguments.
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(V ${VARIANTS})  # tests/rtl_variants/ made in the build tree (tests/rtl_variants/variants.cmake)
set(CACHE --rtl-cache ${CACHE_DIR})  # the tests' shared RTL cache (tests/CMakeLists.txt)
set(SCENE ${SRC}/examples/scenes/compressed.json)  # no D3DCOLOR byte 255: the planted bug is not reached

function(cycles out)  # cycles(<var> args...): the summary's cycle count of `vpsim run args... --json`
  execute_process(COMMAND ${VPSIM} run ${ARGN} --json --no-progress RESULT_VARIABLE rc OUTPUT_VARIABLE o
                  ERROR_VARIABLE e WORKING_DIRECTORY ${WORK})
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "vpsim run ${ARGN}: exit ${rc}\n${o}${e}")
  endif()
  string(JSON c GET "${o}" cycles)
  string(JSON r ERROR_VARIABLE no_rtl GET "${o}" rtl)  # absent when every unit is its model
  set(${out} ${c} PARENT_SCOPE)
  set(${out}_rtl "${r}" PARENT_SCOPE)
endfunction()

cycles(builtin ${SCENE} --rtl vertex_fetch)
if(NOT builtin_rtl MATCHES "^\\[ *\"vertex_fetch\" *\\]$")
  message(SEND_ERROR "--rtl vertex_fetch: the summary's rtl is ${builtin_rtl}")
endif()
# The model unit with the RTL's timing parameters (sc::vf::rtl_timing_params()) has its cycles.
set(EQ)
foreach(kv cache_lines=1 line_bytes=16 prefetch_lines=0 elements_per_cycle=1 hit_latency=1 fill_latency=1
           convert_per_cycle=1 element_queue=64 max_misses=32 fetch_window=66)
  list(APPEND EQ --set vertex_fetch.${kv})
endforeach()
cycles(model_eq ${SCENE} ${EQ})
cycles(model ${SCENE})
if(NOT model_eq EQUAL builtin)
  message(SEND_ERROR "the model with the RTL's timing parameters: ${model_eq} cycles, the RTL ${builtin}")
endif()
message(STATUS "ok: ${SCENE}: RTL ${builtin} cycles = model with the RTL's timing; the default model ${model}")
# Both RTL units: the decoder's RTL is cycle-exact, so the cycles stay the vertex fetch RTL's.
cycles(both ${SCENE} --rtl decl_decoder,vertex_fetch)
if(NOT both EQUAL builtin OR NOT both_rtl MATCHES "\"decl_decoder\", *\"vertex_fetch\"")
  message(SEND_ERROR "--rtl decl_decoder,vertex_fetch: ${both} cycles (${both_rtl}), expected ${builtin}")
endif()
# Your own design: Verilated into the cache; where it is right, the same cycles as the built-in.
cycles(user ${SCENE} --rtl vertex_fetch=${V}/vertex_fetch_bug.sv ${CACHE})
if(NOT user EQUAL builtin OR NOT user_rtl MATCHES "vertex_fetch=[^\"]*vertex_fetch_bug.sv")
  message(SEND_ERROR "--rtl vertex_fetch=vertex_fetch_bug.sv: ${user} cycles (${user_rtl}), expected ${builtin}")
endif()
# Where it is wrong (strip.json's colors have bytes of 255), the run stops at the first vertex
# that differs, naming the draw, the scene command, the vertex and the register: exit 1.
expect(1 "--rtl vertex_fetch=[^ ]*vertex_fetch_bug.sv: RTL vertex_fetch \\([^)]*\\): draw 0 \\(/commands/3\\), vertex 0: v5 is \\(3f000000 00000000 00000000 3f000000\\), the golden fetch_vertex gives \\(3f800000 00000000 00000000 3f800000\\)"
       run ${SRC}/examples/scenes/strip.json --rtl vertex_fetch=${V}/vertex_fetch_bug.sv ${CACHE} --out ${WORK}/bug)
if(EXISTS ${WORK}/bug/stats.json)
  message(SEND_ERROR "a run stopped by the RTL wrote stats.json")
endif()
# config.json says which unit was RTL.
expect(0 "-" run ${SCENE} --rtl vertex_fetch --out ${WORK}/out --quiet)
file(READ ${WORK}/out/config.json cfg)
if(NOT cfg MATCHES "\"rtl\": \\[\n *\"vertex_fetch\"\n *\\]")
  message(SEND_ERROR "config.json lacks \"rtl\": [\"vertex_fetch\"]:\n${cfg}")
endif()
# Bad arguments: exit 2, before anything runs.
expect(2 "vertex fetch unit.s port contract.*mem_req_words is 3 bits wide, the contract says 2"
       run ${SCENE} --rtl vertex_fetch=${V}/vertex_fetch_badports.sv ${CACHE})
expect(2 "--rtl vertex_fetch=[^ ]*: vertex_fetch is given twice"
       run ${SCENE} --rtl vertex_fetch --rtl vertex_fetch=${V}/vertex_fetch_bug.sv ${CACHE})
expect(2 "only decl_decoder and vertex_fetch take your own RTL" run ${SCENE} --rtl vertex_alu=${V}/vertex_fetch_bug.sv)
expect(2 "no RTL for this unit; valid values: decl_decoder, vertex_fetch" run ${SCENE} --rtl decl_decoder,vertex_alu)
expect(2 "--rtl vertex_fetch=: no file after '='" run ${SCENE} --rtl vertex_fetch=)
