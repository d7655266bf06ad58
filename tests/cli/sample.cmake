# vpsim run --sample (docs/sampling.md), one ctest per behaviour (tests/CMakeLists.txt,
# vpsim_cli_cases): the refusals (a run too short, patches, options that need every cycle), a
# seed's run repeated gives the same output, and the interval holds the full run's cycles.
# Run by ctest: cmake -DVPSIM=... -DSRC=... -DCASE=... -DWORK=... -P tests/cli/sample.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(SC ${SRC}/examples/scenes)
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)  # expect(code regex args...)

# A run of 5 draws, 37 references, gives no samples: refused (exit 2) with the counts.
function(case_too_short)
  expect(2 "--sample refused: .*strip.json: too short to sample: 5 units .* 0 samples at period 1 \\(at least 30"
         run ${SC}/strip.json --sample)
endfunction()

# A patch scene is refused: the tessellator's cached patches span draws.
function(case_patches)
  expect(2 "--sample refused: .*bezier.json: /commands/[0-9]+: a patch: the tessellator's cached patches span draws"
         run ${SC}/patches/bezier.json --sample)
endfunction()

# A scene whose program changes every draw (here D3DRS_PATCHSEGMENTS set before each of 40 draws of
# the default sphere): every phase is shorter than 10 periods, so sampling cannot bound it: refused.
function(case_phases)
  file(READ ${SC}/default.json scene)
  string(JSON n LENGTH "${scene}" commands)
  math(EXPR last "${n} - 1")
  string(JSON scene REMOVE "${scene}" commands ${last})
  foreach(i RANGE 39)
    math(EXPR start "${i} * 1470")
    math(EXPR at "${last} + 2 * ${i}")
    string(JSON scene SET "${scene}" commands ${at} "{\"op\": \"SetRenderState\", \"state\": 164, \"value\": 1.0}")
    math(EXPR at "${at} + 1")
    string(JSON scene SET "${scene}" commands ${at} "{\"op\": \"DrawIndexedPrimitive\", \"type\": \"trianglelist\", \"min_index\": 0, \"num_vertices\": 10000, \"start_index\": ${start}, \"primitive_count\": 490}")
  endforeach()
  file(WRITE ${WORK}/phases.json "${scene}")
  expect(0 "cycles" run ${WORK}/phases.json --no-progress)  # the scene itself runs
  expect(2 "--sample refused: .*phases.json: phase changes too frequent to bound: 600 of 600 units are in phases shorter than"
         run ${WORK}/phases.json --sample)
endfunction()

# Options that need every cycle simulated, or that only mean something with --sample, are refused.
function(case_options)
  expect(2 "--vcd excludes --sample|--sample excludes --vcd" run --sample --vcd ${WORK}/x.vcd)
  expect(2 "--out excludes --sample|--sample excludes --out" run --sample --out ${WORK}/o)
  expect(2 "--rtl excludes --sample|--sample excludes --rtl" run --sample --rtl decl_decoder)
  expect(2 "--sample-seed requires --sample" run --sample-seed 3)
  expect(2 "--sample-period: Value 0 not in range" run --sample --sample-period 0)
  if(EXISTS ${WORK}/x.vcd OR EXISTS ${WORK}/o)
    message(SEND_ERROR "a refused --sample run wrote a file")
  endif()
endfunction()

# The same seed gives the same output (the host time aside); the seed is printed.
function(case_deterministic)
  set(args run --sample --sample-unit 300 --sample-warmup 1000 --sample-seed 7)
  foreach(i 1 2)
    execute_process(COMMAND ${VPSIM} ${args} --json RESULT_VARIABLE rc OUTPUT_VARIABLE out${i})
    string(REGEX REPLACE "\"host_seconds\": [0-9.e+-]+" "" out${i} "${out${i}}")
  endforeach()
  if(NOT rc EQUAL 0 OR NOT out1 STREQUAL out2 OR NOT out1 MATCHES "\"seed\": 7")
    message(SEND_ERROR "two runs with seed 7 differ (or failed, exit ${rc}):\n${out1}\n---\n${out2}")
  endif()
  expect(0 "seed +7" ${args})
endfunction()

# On the default scene (58,806 references), the sampled run's 99.7 % interval holds the full run's cycles.
function(case_interval)
  execute_process(COMMAND ${VPSIM} run --json --no-progress RESULT_VARIABLE rc1 OUTPUT_VARIABLE full)
  execute_process(COMMAND ${VPSIM} run --sample --sample-unit 300 --json RESULT_VARIABLE rc2 OUTPUT_VARIABLE s)
  if(NOT rc1 EQUAL 0 OR NOT rc2 EQUAL 0)
    message(FATAL_ERROR "exit ${rc1}/${rc2}:\n${full}\n${s}")
  endif()
  string(JSON cycles GET "${full}" cycles)
  string(JSON low GET "${s}" cycles low)
  string(JSON high GET "${s}" cycles high)
  string(JSON samples GET "${s}" samples)
  string(REGEX REPLACE "\\..*" "" low "${low}")
  string(REGEX REPLACE "\\..*" "" high "${high}")
  if(samples LESS 30 OR cycles LESS low OR cycles GREATER high)
    message(SEND_ERROR "full run ${cycles} cycles outside the sampled interval [${low}, ${high}] (${samples} samples)")
  else()
    message(STATUS "ok: ${cycles} in [${low}, ${high}] from ${samples} samples")
  endif()
endfunction()

if(NOT COMMAND case_${CASE})
  message(FATAL_ERROR "unknown case '${CASE}'")
endif()
cmake_language(CALL case_${CASE})
