# vpsim bench: calibrate within tolerance, coissue and reference (a workload the caps refuse),
# run (speed and memory check), dispatch (three ways, equal cycles), xcheck (serial = chunked).
# Run by ctest (tests/CMakeLists.txt): cmake -DVPSIM=... -DSRC=... -DWORK=... [-DSANITIZE=...] -P tests/cli/bench.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(EX ${SRC}/examples/decl)
set(XE ${SRC}/examples/exec)
set(SH ${SRC}/examples/shaders)
set(SC ${SRC}/examples/scenes)
include(${CMAKE_CURRENT_LIST_DIR}/../cli_expect.cmake)  # expect(code regex args...)

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
