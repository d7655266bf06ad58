# vpsim bench: calibrate within tolerance, coissue and reference (a workload the caps refuse),
# sensitivity (its table, --json, --write/--check, usage errors), run (speed and memory check),
# dispatch (three ways, equal cycles), xcheck (serial = chunked).
# Run by ctest (tests/CMakeLists.txt): cmake -DVPSIM=... -DSRC=... -DWORK=... [-DSANITIZE=...] -P tests/cli/bench.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(EX ${SRC}/examples/decl)
set(XE ${SRC}/examples/exec)
set(SH ${SRC}/examples/shaders)
set(SC ${SRC}/examples/scenes)
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)  # expect(code regex args...)

expect(0 "nv20 .*ok .*nv2a .*ok .*nv25 .*ok .*every preset within its tolerance" bench calibrate)
expect(1 "OUT.*a preset is outside its tolerance" bench calibrate --set vertex_fetch.prefetch_lines=0)
expect(2 "not a directory" bench coissue ${WORK}/no_such_dir)
expect(2 "exactly one of --write FILE and --check FILE" bench reference ${SRC}/examples/scenes)
# A workload the presets' caps refuse (indexed blending in hardware: MaxVertexBlendMatrixIndex 0 on
# every preset; ff_blend_indexed with D3DRS_SOFTWAREVERTEXPROCESSING FALSE) is reported as refused,
# naming the cap; the suite goes on (exit 0).
file(REMOVE_RECURSE ${WORK}/refused_suite)
file(MAKE_DIRECTORY ${WORK}/refused_suite)
file(COPY ${SRC}/examples/workloads/ff_directional_1.json DESTINATION ${WORK}/refused_suite)
file(READ ${SRC}/examples/workloads/ff_blend_indexed.json blend_hw)
string(REGEX REPLACE "\"SOFTWAREVERTEXPROCESSING\",[ \n]*\"value\": true" "\"SOFTWAREVERTEXPROCESSING\", \"value\": false"
       blend_hw "${blend_hw}")
if(NOT blend_hw MATCHES "\"SOFTWAREVERTEXPROCESSING\", \"value\": false")
  message(FATAL_ERROR "ff_blend_indexed.json no longer sets D3DRS_SOFTWAREVERTEXPROCESSING TRUE")
endif()
file(WRITE ${WORK}/refused_suite/ff_blend_indexed.json "${blend_hw}")
expect(0 "ff_blend_indexed +refused by the preset's caps \\(MaxVertexBlendMatrixIndex\\).*ff_directional_1 +1\\.0" bench coissue ${WORK}/refused_suite)
expect(0 "6 rows" bench reference ${WORK}/refused_suite --write ${WORK}/refused_suite.stats)
file(READ ${WORK}/refused_suite.stats rstats)
if(NOT rstats MATCHES "\"workload\":\"ff_blend_indexed\",\"preset\":\"nv20\",\"refused\":\"/commands/[0-9]+: fixed function: [^\"]*MaxVertexBlendMatrixIndex is 0")
  message(SEND_ERROR "bench reference: no refused row naming the cap for ff_blend_indexed:\n${rstats}")
endif()
if(NOT rstats MATCHES "\"workload\":\"ff_directional_1\",\"preset\":\"nv25\",\"cycles\":[1-9]")
  message(SEND_ERROR "bench reference: ff_directional_1 did not run beside the refused workload:\n${rstats}")
endif()
# bench sensitivity on a two-workload suite (8 lights and 1): nv2a's assumed 8 lights halved make the
# caps refuse the 8-light workload (flagged); a doubled 4 blend matrices is clamped to the range's 4,
# a halved 1 element per cycle rounds back to 1 (neither run); an enum has a row per other value.
file(REMOVE_RECURSE ${WORK}/sens_suite)
file(MAKE_DIRECTORY ${WORK}/sens_suite)
file(COPY ${SRC}/examples/workloads/ff_directional_8.json ${SRC}/examples/workloads/ff_directional_1.json
     DESTINATION ${WORK}/sens_suite)
expect(0 "preset +parameter +value +changed to +calibration +suite: largest change +median +> 10 %.*nv2a +fixed_function.max_active_lights +8 +half 4 +[-+]0\\.0 % [^\n]* yes +the caps refuse ff_directional_8\n[^\n]*double 16 .*double 4 +=[^\n]*8 clamped to the maximum 4, the preset's value: not run.*half 1 +=[^\n]*0\\.5 rounds to the preset's value: not run.*vertex_alu.schedule +oldest +round_robin +[-+][0-9.]+ %.*rows, [0-9]+ flagged.*on 2 workloads and the calibration workload in [0-9.]+ s"
       bench sensitivity ${WORK}/sens_suite --preset nv2a --json ${WORK}/sens.json)
file(READ ${WORK}/sens.json sj)
string(JSON nrows LENGTH "${sj}" rows)
string(JSON p0 GET "${sj}" rows 0 param)
string(JSON refuse0 GET "${sj}" rows 0 variants 0 caps_refuse 0)
if(nrows LESS 15 OR NOT p0 STREQUAL "fixed_function.max_active_lights" OR NOT refuse0 STREQUAL "ff_directional_8")
  message(SEND_ERROR "bench sensitivity --json: ${nrows} rows, first ${p0} refusing ${refuse0}:\n${sj}")
endif()
expect(0 "\\| preset \\| parameter \\| value \\| half \\(or other value\\) \\|.*\\| nv20 \\| `vertex_alu.schedule` \\| oldest \\| round_robin \\| [-+][0-9.]+ % \\|[^\n]*\\| - \\| \\| \\| \\|"
       bench sensitivity ${WORK}/sens_suite --preset nv20 --markdown)
# --write, then --check: equal (exit 0); an entry changed, one added: each listed (exit 1).
expect(0 "sens_suite.sensitivity.json: written \\(62 rows" bench sensitivity ${WORK}/sens_suite --write ${WORK}/sens_suite.sensitivity.json)
expect(0 "sensitivity.json equals the measurement" bench sensitivity ${WORK}/sens_suite --check ${WORK}/sens_suite.sensitivity.json)
file(READ ${WORK}/sens_suite.sensitivity.json sw)
string(JSON sw SET "${sw}" presets nv2a 0 change_percent 1.5)
string(JSON sw SET "${sw}" presets nv20 0 param "\"memory.latency\"")
file(WRITE ${WORK}/sens_moved.json "${sw}")
expect(1 "nv2a fixed_function.max_active_lights: \\{[^\n]*\"change_percent\":1\\.5[^\n]* -> .*in [^\n]*sens_moved.json but no longer moves a result by more than 10 %.*entries moved against"
       bench sensitivity ${WORK}/sens_suite --check ${WORK}/sens_moved.json)
file(WRITE ${WORK}/sens_bad.json "{\"schema\": \"other\"}")
expect(2 "sens_bad.json: expected \\{\"schema\": \"vpsim-sensitivity-1\"" bench sensitivity ${WORK}/sens_suite --check ${WORK}/sens_bad.json)
expect(2 "no_such.json: cannot read it" bench sensitivity ${WORK}/sens_suite --check ${WORK}/no_such.json)
# Usage: exit 2, nothing run.
expect(2 "give at most one of --write FILE and --check FILE" bench sensitivity ${WORK}/sens_suite --write a.json --check b.json)
expect(2 "--write covers every preset \\(the file lists them all\\): --preset does not apply" bench sensitivity ${WORK}/sens_suite --write a.json --preset nv20)
expect(2 "--check prints no table: --markdown does not apply" bench sensitivity ${WORK}/sens_suite --check b.json --markdown)
expect(2 "--preset nv30: no such preset; valid presets: nv20, nv2a, nv25" bench sensitivity ${WORK}/sens_suite --preset nv30)
expect(2 "--preset nv20: given twice" bench sensitivity ${WORK}/sens_suite --preset nv20,nv20)
expect(2 "no_such_dir: not a directory of workload scenes" bench sensitivity ${WORK}/no_such_dir)
expect(2 "examples/workloads: not a directory of workload scenes" bench sensitivity)
expect(2 "--set" bench sensitivity ${WORK}/sens_suite --set memory.latency=1)
if(EXISTS ${WORK}/a.json)
  message(SEND_ERROR "bench sensitivity wrote a.json on a usage error")
endif()
# bench run: the speed comparison on a small scene (the default, the 1M-vertex sphere, takes
# seconds per repetition), its errors, and the memory check: the peak of `vpsim run` beyond the
# scene's buffers grows by at most 1 MiB from the 10k- to the 1M-vertex sphere (exit 3 if not).
expect(0 "model/bare +vertices/s.*ratio \\(model cycles/s over bare sc_clock" bench run ${SRC}/examples/scenes/strip.json --repeat 1 --no-memory)
if(SANITIZE)
  # Under the sanitizers the resident set is mostly ASan's shadow memory and quarantine: the bound
  # is about vpsim's own memory, so it is checked in the normal build only.
  message(STATUS "skipped under the sanitizers: bench run's memory bound")
else()
  expect(0 "beyond the buffers.*bound: at most 1.0 MiB beyond the buffers \\(--memory-bound\\): within"
         bench run ${SRC}/examples/scenes/strip.json --repeat 1)
endif()
expect(2 "no-such-scene.json: cannot open" bench run ${WORK}/no-such-scene.json --repeat 1)
expect(2 "vertex_alu.engines: expected uint in \\[1, 64\\]" bench run --repeat 1 --no-memory --set vertex_alu.engines=0)
expect(0 "\"ratio\".*\"memory\": null" bench run ${SRC}/examples/scenes/strip.json --repeat 1 --no-memory --json)
# bench dispatch: the same 7-stage chain as SC_THREADs and SC_METHODs with sc_fifos and as
# TimedUnits with Channels under the dispatcher simulates the same cycles (exit 3 if not).
expect(0 "cycles equal: busy 80,016, idle 320,013 cycles, and every stage's busy and stalled cycles"
       bench dispatch --items 20000 --repeat 1)
expect(0 "\"cycles_equal\": true" bench dispatch --items 500 --repeat 1 --workload busy --json)

# bench xcheck: the serial per-array path and the chunked path at --jobs 1 and 2 check the same
# arrays (exit 1 if not), then one thread's time by part.
expect(0 "serial, per-array allocation.*chunked, --jobs 1 .*chunked, --jobs 2 .*generation .*golden side .*RTL \\(Verilated"
       bench xcheck --random 5000 --repeat 1 --phase-arrays 1000)
expect(0 "\"ways\".*\"jobs\": 2.*\"rtl_cycles_per_second\"" bench xcheck --random 3000 --repeat 1 --phase-arrays 500 --json)
expect(2 "--jobs: Value 0 not in range" bench xcheck --jobs 0)
