# vpsim bench, one ctest per behaviour (tests/CMakeLists.txt, vpsim_cli_cases): calibrate within
# tolerance, coissue and reference (a workload the caps refuse), sensitivity (its table, --json,
# --write/--check, errors), run (speed and memory check), dispatch (three ways, equal cycles),
# xcheck (serial = chunked).
# Run by ctest: cmake -DVPSIM=... -DSRC=... -DCASE=... -DWORK=... [-DSANITIZE=...] -P tests/cli/bench.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)  # expect(code regex args...)

# The two-workload suite of the sensitivity cases (8 lights and 1).
function(sens_suite)
  file(MAKE_DIRECTORY ${WORK}/sens_suite)
  file(COPY ${SRC}/examples/workloads/ff_directional_8.json ${SRC}/examples/workloads/ff_directional_1.json
       DESTINATION ${WORK}/sens_suite)
endfunction()

# bench calibrate: every preset within its tolerance; a preset moved out of it: exit 1.
function(case_calibrate)
  expect(0 "nv20 .*ok .*nv2a .*ok .*nv25 .*ok .*every preset within its tolerance" bench calibrate)
  expect(1 "OUT.*a preset is outside its tolerance" bench calibrate --set vertex_fetch.prefetch_lines=0)
endfunction()

# bench coissue and reference: usage errors.
function(case_usage)
  expect(2 "not a directory" bench coissue ${WORK}/no_such_dir)
  expect(2 "exactly one of --write FILE and --check FILE" bench reference ${SRC}/examples/scenes)
endfunction()

function(case_refused)
  # A workload the presets' caps refuse (indexed blending in hardware: MaxVertexBlendMatrixIndex 0 on
  # every preset; ff_blend_indexed with D3DRS_SOFTWAREVERTEXPROCESSING FALSE) is reported as refused,
  # naming the cap; the suite goes on (exit 0).
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
endfunction()

function(case_sensitivity)
  # bench sensitivity on a two-workload suite (8 lights and 1): nv2a's assumed 8 lights halved make the
  # caps refuse the 8-light workload (flagged); a doubled 4 blend matrices is clamped to the range's 4,
  # a halved 1 element per cycle rounds back to 1 (neither run); an enum has a row per other value.
  sens_suite()
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
endfunction()

# --write: the measurement on every preset into a file (the fixture of the --check cases, in ${SHARED}).
function(case_sens_write)
  file(REMOVE_RECURSE ${SHARED})
  file(MAKE_DIRECTORY ${SHARED})
  set(WORK ${SHARED})  # expect() runs in it
  sens_suite()
  expect(0 "sens_suite.sensitivity.json: written \\(62 rows" bench sensitivity ${WORK}/sens_suite --write ${WORK}/sens_suite.sensitivity.json)
endfunction()

# --check of the file --write wrote: equal (exit 0). It repeats --write's measurement and compares
# two strings: not registered in a sanitizer tree (tests/CMakeLists.txt; 32 s of that pass).
function(case_sens_check_equal)
  expect(0 "sensitivity.json equals the measurement" bench sensitivity ${SHARED}/sens_suite --check ${SHARED}/sens_suite.sensitivity.json)
endfunction()

# --check with an entry changed and one added: each listed (exit 1).
function(case_sens_check_moved)
  file(READ ${SHARED}/sens_suite.sensitivity.json sw)
  string(JSON sw SET "${sw}" presets nv2a 0 change_percent 1.5)
  string(JSON sw SET "${sw}" presets nv20 0 param "\"memory.latency\"")
  file(WRITE ${WORK}/sens_moved.json "${sw}")
  expect(1 "nv2a fixed_function.max_active_lights: \\{[^\n]*\"change_percent\":1\\.5[^\n]* -> .*in [^\n]*sens_moved.json but no longer moves a result by more than 10 %.*entries moved against"
         bench sensitivity ${SHARED}/sens_suite --check ${WORK}/sens_moved.json)
endfunction()

# bench sensitivity: a bad or missing --check file, usage errors: exit 2, nothing run or written.
function(case_sens_errors)
  sens_suite()
  file(WRITE ${WORK}/sens_bad.json "{\"schema\": \"other\"}")
  expect(2 "sens_bad.json: expected \\{\"schema\": \"vpsim-sensitivity-1\"" bench sensitivity ${WORK}/sens_suite --check ${WORK}/sens_bad.json)
  expect(2 "no_such.json: cannot read it" bench sensitivity ${WORK}/sens_suite --check ${WORK}/no_such.json)
  # The --check file is read before anything is measured: with a suite whose scene is broken, the
  # error is the file's, not the scene's.
  file(MAKE_DIRECTORY ${WORK}/broken_suite)
  file(WRITE ${WORK}/broken_suite/broken.json "{")
  expect(2 "sens_bad.json: expected \\{\"schema\": \"vpsim-sensitivity-1\"" bench sensitivity ${WORK}/broken_suite --check ${WORK}/sens_bad.json)
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
endfunction()

# bench run: the speed comparison on a small scene (the default, the 1M-vertex sphere, takes
# seconds per repetition), text and JSON. Its figures are printed, not judged.
function(case_run_speed)
  expect(0 "model/bare +vertices/s.*ratio \\(model cycles/s over bare sc_clock" bench run ${SRC}/examples/scenes/strip.json --repeat 1 --no-memory)
  expect(0 "\"ratio\".*\"memory\": null" bench run ${SRC}/examples/scenes/strip.json --repeat 1 --no-memory --json)
endfunction()

# bench run's memory check: the peak of `vpsim run` beyond the scene's buffers grows by at most
# 1 MiB from the 10k- to the 1M-vertex sphere (exit 3 if not). Not registered in a sanitizer tree:
# there the resident set is mostly ASan's shadow memory and quarantine, not vpsim's own.
function(case_run_memory)
  expect(0 "beyond the buffers.*bound: at most 1.0 MiB beyond the buffers \\(--memory-bound\\): within"
         bench run ${SRC}/examples/scenes/strip.json --repeat 1)
endfunction()

# bench run: a missing scene and a bad --set: exit 2.
function(case_run_errors)
  expect(2 "no-such-scene.json: cannot open" bench run ${WORK}/no-such-scene.json --repeat 1)
  expect(2 "vertex_alu.engines: expected uint in \\[1, 64\\]" bench run --repeat 1 --no-memory --set vertex_alu.engines=0)
endfunction()

function(case_dispatch)
  # bench dispatch: the same 7-stage chain as SC_THREADs and SC_METHODs with sc_fifos and as
  # TimedUnits with Channels under the dispatcher simulates the same cycles (exit 3 if not).
  expect(0 "cycles equal: busy 80,016, idle 320,013 cycles, and every stage's busy and stalled cycles"
         bench dispatch --items 20000 --repeat 1)
  expect(0 "\"cycles_equal\": true" bench dispatch --items 500 --repeat 1 --workload busy --json)

endfunction()

function(case_xcheck)
  # bench xcheck: the serial per-array path and the chunked path at --jobs 1 and 2 check the same
  # arrays (exit 1 if not), then one thread's time by part; the vertex fetch's vertices/s at --jobs 1
  # and 2 (the same cases and cycles at both, exit 1 if not).
  expect(0 "serial, per-array allocation.*chunked, --jobs 1 .*chunked, --jobs 2 .*generation .*golden side .*RTL \\(Verilated.*vertex fetch .*--jobs 1 .*--jobs 2 "
         bench xcheck --random 5000 --repeat 1 --phase-arrays 1000 --vf-random 300)
  expect(0 "\"vertex_fetch\".*\"jobs\": 2.*\"vertices_per_second\"" bench xcheck --random 1000 --repeat 1 --phase-arrays 100
         --vf-random 200 --json)
  expect(0 "\"ways\".*\"jobs\": 2.*\"rtl_cycles_per_second\"" bench xcheck --random 3000 --repeat 1 --phase-arrays 500
         --vf-random 0 --json)
  expect(2 "--jobs: Value 0 not in range" bench xcheck --jobs 0)
endfunction()

if(NOT COMMAND case_${CASE})
  message(FATAL_ERROR "tests/cli/bench.cmake: no case '${CASE}' (-DCASE=)")
endif()
cmake_language(CALL case_${CASE})
