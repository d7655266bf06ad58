# vpsim run --topology-file: another pipeline without recompiling (the delay stage inserted, two
# vertex fetch units each with its own memory, a link's capacity and latency changed), printed by
# --topology; a topology that cannot be built is refused before the run, located in its file;
# a sweep axis over topology files.
# Run by ctest (tests/CMakeLists.txt): cmake -DVPSIM=... -DSRC=... -DWORK=... -P tests/cli/run_topology.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(SC ${SRC}/examples/scenes)
set(TOP ${SRC}/examples/topologies)
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)  # expect(code regex args...)

# The stats.json of a run without the host timing, and its vertices.
function(run_out dir)
  execute_process(COMMAND ${VPSIM} run ${ARGN} --out ${WORK}/${dir} --vertices --quiet RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(SEND_ERROR "vpsim run ${ARGN}: exit ${rc}\n${out}${err}")
  endif()
endfunction()
function(same_vertices a b)
  file(READ ${WORK}/${a}/vertices.json va)
  file(READ ${WORK}/${b}/vertices.json vb)
  if(NOT va STREQUAL vb OR va STREQUAL "")
    message(SEND_ERROR "${a} and ${b}: the vertices differ")
  else()
    message(STATUS "ok: ${a} and ${b} emit the same vertices")
  endif()
endfunction()
function(get_json var file)
  file(READ ${WORK}/${file} j)
  string(JSON v ERROR_VARIABLE e GET "${j}" ${ARGN})
  if(e)
    message(SEND_ERROR "${file}: ${ARGN}: ${e}")
  endif()
  set(${var} "${v}" PARENT_SCOPE)
endfunction()

# The topology in use: the built-in one (as a table, and its file with --json), or a file's.
expect(0 "\"schema\": \"vpsim-topology-1\".*\"name\": \"vertex_fetch_to_alu\"" run --topology --json)
expect(0 "step order \\(downstream first\\): output, vertex_alu, delay_stage, vertex_fetch, index_fetch"
       run --topology --topology-file ${TOP}/delay_stage.json)
expect(0 "vertex_fetch_0 +vertex_fetch .*memory port: memory_0.*vertex_fetch_1 +vertex_fetch .*memory port: memory_1"
       run --topology --topology-file ${TOP}/two_vertex_fetch.json)
expect(0 "^$" run --topology-dot ${WORK}/delay.dot --topology-file ${TOP}/delay_stage.json)
file(READ ${WORK}/delay.dot dot)
if(NOT dot MATCHES "^digraph vpsim.*\"vertex_fetch\" -> \"delay_stage\".*\"delay_stage\" -> \"vertex_alu\"")
  message(SEND_ERROR "--topology-dot with the delay stage:\n${dot}")
endif()

# The delay stage: same vertices, more cycles, its own statistics; config.json names the file.
run_out(base ${SC}/strip.json)
run_out(delay ${SC}/strip.json --topology-file ${TOP}/delay_stage.json --set delay_stage.latency=5)
same_vertices(base delay)
get_json(c0 base/stats.json summary cycles)
get_json(c1 delay/stats.json summary cycles)
get_json(jobs delay/stats.json units delay_stage counters jobs value)
get_json(shaded base/stats.json summary shaded)
get_json(topo delay/config.json topology)
if(NOT c1 GREATER c0 OR NOT jobs EQUAL shaded OR NOT topo MATCHES "delay_stage.json$")
  message(SEND_ERROR "delay stage: cycles ${c0} -> ${c1}, jobs ${jobs} of ${shaded} shaded, config topology '${topo}'")
endif()
# Its parameters exist only in a topology that has it.
expect(2 "delay_stage.latency: unknown unit 'delay_stage'" run ${SC}/strip.json --set delay_stage.latency=5 --quiet)

# Two vertex fetch units, each with its own memory: same vertices; each instance has its
# statistics and the jobs alternate between them.
run_out(two ${SC}/skinning.json --topology-file ${TOP}/two_vertex_fetch.json)
run_out(one ${SC}/skinning.json)
same_vertices(one two)
get_json(v0 two/stats.json units vertex_fetch_0 counters vertices value)
get_json(v1 two/stats.json units vertex_fetch_1 counters vertices value)
get_json(r0 two/stats.json units memory_0 counters requests value)
get_json(r1 two/stats.json units memory_1 counters requests value)
get_json(v one/stats.json units vertex_fetch counters vertices value)
math(EXPR sum "${v0} + ${v1}")
math(EXPR diff "${v0} - ${v1}")
if(NOT sum EQUAL v OR diff LESS 0 OR diff GREATER 1 OR r0 EQUAL 0 OR r1 EQUAL 0)
  message(SEND_ERROR "two fetch units: ${v0} + ${v1} vertices (one unit: ${v}), memory requests ${r0} / ${r1}")
endif()

# A link's capacity, latency and bandwidth changed in the file (no rebuild): printed, and run.
file(READ ${SRC}/model/sc/topology.json t)
string(REPLACE "\"to\": \"vertex_alu.in\",\n     \"capacity\": \"vertex_fetch.input_buffers\", \"latency\": 1, \"bandwidth\": 1,"
               "\"to\": \"vertex_alu.in\",\n     \"capacity\": 3, \"latency\": 4, \"bandwidth\": 2," t2 "${t}")
if(t2 STREQUAL t)
  message(FATAL_ERROR "the built-in topology's vertex_fetch_to_alu link is not written as this test expects")
endif()
file(WRITE ${WORK}/slow_link.json "${t2}")
expect(0 "vertex_fetch_to_alu +vertex_fetch.out +vertex_alu.in +3 +4 +2 " run --topology --topology-file ${WORK}/slow_link.json)
run_out(slow ${SC}/strip.json --topology-file ${WORK}/slow_link.json)
same_vertices(base slow)
get_json(c2 slow/stats.json summary cycles)
if(NOT c2 GREATER c0)
  message(SEND_ERROR "a 4-cycle link: ${c2} cycles, not more than ${c0}")
endif()

# Refused before the run, located in the file: an unknown unit type, a port of the wrong
# direction, a missing file.
string(REPLACE "\"type\": \"tessellator\"" "\"type\": \"tesselator\"" bad "${t}")
file(WRITE ${WORK}/bad_type.json "${bad}")
expect(2 "bad_type.json:8:37: unknown unit type tesselator; valid: front_end, " run ${SC}/strip.json --topology-file ${WORK}/bad_type.json)
string(REPLACE "\"from\": \"front_end.constants\"" "\"from\": \"constant_loader.in\"" bad "${t}")
file(WRITE ${WORK}/bad_dir.json "${bad}")
expect(2 "bad_dir.json:[0-9]+:[0-9]+: link front_end_to_constant_loader: constant_loader.in is an input port"
       run --topology --topology-file ${WORK}/bad_dir.json)
expect(2 "nosuch.json: cannot open" run --topology-file ${WORK}/nosuch.json)
if(EXISTS ${WORK}/bad_out)
  message(SEND_ERROR "a refused topology left an output directory")
endif()

# A sweep axis over topology files: one point per file, the same as `vpsim run --topology-file`.
execute_process(COMMAND ${VPSIM} sweep --scene ${SC}/strip.json --axis topology=${TOP}/delay_stage.json,${TOP}/two_vertex_fetch.json
                        --out ${WORK}/sweep RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT "${out}${err}" MATCHES "2 points: 2 run \\(2 ok, 0 failed\\)")
  message(SEND_ERROR "sweep over topology files: exit ${rc}\n${out}${err}")
endif()
file(READ ${WORK}/sweep/results.csv csv)
if(NOT csv MATCHES "topology" OR NOT csv MATCHES "delay_stage.json" OR NOT csv MATCHES "two_vertex_fetch.json")
  message(SEND_ERROR "sweep over topology files: results.csv lacks the topology column:\n${csv}")
endif()
execute_process(COMMAND ${VPSIM} sweep --scene ${SC}/strip.json --axis topology=${WORK}/bad_type.json --out ${WORK}/sweep_bad
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT "${out}${err}" MATCHES "axis topology: .*bad_type.json:8:37: unknown unit type tesselator")
  message(SEND_ERROR "sweep over a bad topology file: exit ${rc}\n${out}${err}")
endif()
