# vpsim run --sample (docs/sampling.md), one ctest per behaviour (tests/CMakeLists.txt,
# vpsim_cli_cases): the refusals (a run too short, patches, options that need every cycle), a
# seed's run repeated gives the same output, the interval holds the full run's cycles, --out's
# sampled stats.json, --sample-fallback, and --sample in vpsim sweep and vpsim why.
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

# The default sphere cut into 40 draws, each after a SetRenderState (`state` 36, FOGSTART): into
# WORK/NAME.json, the state's value `value` for every draw or the draw's number when "each".
function(forty_draws name value)
  file(READ ${SC}/default.json scene)
  string(JSON n LENGTH "${scene}" commands)
  math(EXPR last "${n} - 1")
  string(JSON scene REMOVE "${scene}" commands ${last})
  foreach(i RANGE 39)
    math(EXPR start "${i} * 1470")
    math(EXPR at "${last} + 2 * ${i}")
    set(v ${value})
    if(value STREQUAL "each")
      set(v ${i})
    endif()
    string(JSON scene SET "${scene}" commands ${at} "{\"op\": \"SetRenderState\", \"state\": 36, \"value\": ${v}.0}")
    math(EXPR at "${at} + 1")
    string(JSON scene SET "${scene}" commands ${at} "{\"op\": \"DrawIndexedPrimitive\", \"type\": \"trianglelist\", \"min_index\": 0, \"num_vertices\": 10000, \"start_index\": ${start}, \"primitive_count\": 490}")
  endforeach()
  file(WRITE ${WORK}/${name}.json "${scene}")
endfunction()

# A scene whose draw state changes at every draw (a new render state value each time): 40 phases
# of 40 kinds, each kind's strata fewer than 20 units, so sampling cannot bound it: refused.
function(case_phases)
  forty_draws(phases each)
  expect(0 "cycles" run ${WORK}/phases.json --no-progress)  # the scene itself runs
  expect(2 "--sample refused: .*phases.json: phase changes too frequent to bound: 600 of 600 units are in phases of kinds with fewer than"
         run ${WORK}/phases.json --sample)
endfunction()

# The same state set again before every draw (the same value) changes nothing: one phase, one
# kind, sampled.
function(case_same_state)
  forty_draws(same 5)
  expect(0 "\"phases\": 1,\n  \"kinds\": 1," run ${WORK}/same.json --sample --json)
endfunction()

# The report names the strata sampled and the warm-up's bias allowance: one phase of one kind is
# one stratum sampled (its first unit, the only one starting a phase, is the scene's: whole).
function(case_strata)
  forty_draws(strata 5)
  expect(0 "\"kinds\": 1,\n  \"bias\": 0.005,\n  \"strata\": 1," run ${WORK}/strata.json --sample --json)
endfunction()

# ff_blend2's limb at 100 x 100 with the round-robin issue rule: the draw's first triangles lock the
# vertex ALU's contexts into a slower state (docs/sampling.md, "A known failure"); the start check
# sees the probe 15 % apart from the two starts and refuses (exit 2), naming the probe.
function(case_start_refused)
  file(READ ${SRC}/examples/workloads/ff_blend2.json scene)
  string(JSON scene SET "${scene}" buffers limb slices 99)
  string(JSON scene SET "${scene}" buffers limb stacks 99)
  file(WRITE ${WORK}/limb.json "${scene}")
  expect(2 "--sample refused: .*limb.json: the rate depends on where the simulation starts: units [0-9]+-[0-9]+ of phase 0 take [0-9]+ cycles simulated from the phase's first unit .* % apart \\(over 0.5 %\\)"
         run ${WORK}/limb.json --sample --set vertex_alu.schedule=round_robin)
endfunction()

# On the default scene the start check's probe agrees from both starts; the text shows both figures.
function(case_start_shown)
  expect(0 "start check +phase 0 units [0-9]+-[0-9]+: [0-9,]+ cycles from the phase's start, [0-9,]+ from a sample's warm-up start \\([0-9.]+ % apart\\)"
         run --sample)
endfunction()

# Options that need every cycle simulated, or that only mean something with --sample, are refused.
function(case_options)
  expect(2 "--vcd excludes --sample|--sample excludes --vcd" run --sample --vcd ${WORK}/x.vcd)
  expect(2 "--stats-interval excludes --sample|--sample excludes --stats-interval" run --sample --out ${WORK}/o
         --stats-interval 100)
  expect(2 "--sample-fallback requires --sample" run --sample-fallback)
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

# Small sampled runs of the default scene (196 units of 300 references, 1,000 of warm-up): 0.2 s.
set(quick_sample --sample --sample-unit 300 --sample-warmup 1000)

# --out: stats.json holds the estimate, its interval and each unit's busy and stall estimates with
# theirs; config.json the sampling options.
function(case_out)
  expect(0 "-" run ${quick_sample} --out ${WORK}/o --quiet)
  file(READ ${WORK}/o/stats.json st)
  file(READ ${WORK}/o/config.json cfg)
  string(JSON schema GET "${st}" schema)
  string(JSON cycles GET "${st}" cycles)
  string(JSON sampled GET "${st}" summary sampled)
  string(JSON low GET "${st}" summary sample cycles_low)
  string(JSON high GET "${st}" summary sample cycles_high)
  string(JSON busy_hw GET "${st}" units vertex_alu cycles busy_half_width)
  string(JSON dep_hw GET "${st}" units vertex_alu cycles stalled dependency half_width)
  string(JSON blocks LENGTH "${st}" sample blocks)
  string(JSON unit GET "${cfg}" sample unit)
  string(REGEX REPLACE "\\..*" "" low "${low}")
  string(REGEX REPLACE "\\..*" "" high "${high}")
  if(NOT schema STREQUAL "vpsim-stats-sampled-1" OR NOT sampled OR cycles LESS low OR cycles GREATER high
     OR NOT busy_hw GREATER 0 OR NOT dep_hw GREATER 0 OR blocks LESS 30 OR NOT unit EQUAL 300)
    message(SEND_ERROR "stats.json: ${schema} sampled=${sampled} ${cycles} in [${low}, ${high}], busy ± ${busy_hw}, "
                       "dependency ± ${dep_hw}, ${blocks} blocks; config unit ${unit}")
  endif()
endfunction()

# --sample-fallback: a scene sampling refuses runs in full; stderr and the summary say why.
function(case_fallback)
  expect(2 "--sample refused: .*too short" run ${SC}/strip.json --sample --out ${WORK}/refused)
  if(EXISTS ${WORK}/refused/stats.json)
    message(SEND_ERROR "a refused --sample run wrote stats.json")
  endif()
  run(r run ${SC}/strip.json --sample --sample-fallback --out ${WORK}/o --json)
  file(READ ${WORK}/o/stats.json st)
  string(JSON schema GET "${st}" schema)
  string(JSON sampled GET "${st}" summary sampled)
  string(JSON reason GET "${st}" summary sample refused)
  string(JSON printed GET "${r_out}" sample refused)
  string(JSON cycles GET "${st}" cycles)
  if(NOT r_rc EQUAL 0 OR NOT schema STREQUAL "vpsim-stats-1" OR sampled OR NOT reason MATCHES "too short to sample"
     OR NOT printed STREQUAL reason OR NOT cycles EQUAL 224 OR NOT r_err MATCHES "refused: .*running the whole scene")
    message(SEND_ERROR "exit ${r_rc}, ${schema}, sampled=${sampled}, ${cycles} cycles, '${reason}':\n${r}")
  endif()
endfunction()

# vpsim sweep --sample: each row carries the estimate and its interval; a point sampling refuses
# runs in full, its row says so (sampled false, sample.refused) and the sweep names it.
function(case_sweep)
  run(r sweep --scene ${SC}/default.json --scene ${SC}/strip.json --axis vertex_alu.vector_latency=9,4
      ${quick_sample} --out ${WORK}/sw -j 2)
  file(STRINGS ${WORK}/sw/results.jsonl rows)
  list(LENGTH rows n)
  if(NOT r_rc EQUAL 0 OR NOT n EQUAL 4 OR NOT r_err MATCHES "2 of 4 points ran in full, sampling refused[^\n]*\n  [^\n]*strip.json vertex_alu.vector_latency=9: [^\n]*too short")
    message(FATAL_ERROR "exit ${r_rc}, ${n} rows:\n${r}")
  endif()
  foreach(row ${rows})
    string(JSON scene GET "${row}" scene)
    string(JSON sampled GET "${row}" metrics sampled)
    if(scene MATCHES "default")
      string(JSON hw GET "${row}" metrics sample.cycles_half_width)
      string(JSON busy_hw GET "${row}" units vertex_alu busy_half_width)
      if(NOT sampled OR NOT hw GREATER 0 OR NOT busy_hw GREATER 0)
        message(SEND_ERROR "a sampled row without its interval: ${row}")
      endif()
    else()
      string(JSON reason GET "${row}" metrics sample.refused)
      if(sampled OR NOT reason MATCHES "too short")
        message(SEND_ERROR "a refused point's row does not say so: ${row}")
      endif()
    endif()
  endforeach()
  file(READ ${WORK}/sw/results.csv csv)
  if(NOT csv MATCHES "sample.cycles_low,sample.cycles_high")
    message(SEND_ERROR "results.csv has no interval columns:\n${csv}")
  endif()
endfunction()

# sweep and why: a --sample-* option without --sample does not apply: refused.
function(case_points_options)
  expect(2 "--sample-warmup requires --sample" sweep --scene ${SC}/strip.json --sample-warmup 10 --out ${WORK}/s)
  expect(2 "--sample-seed requires --sample" why --sample-seed 3)
  if(EXISTS ${WORK}/s)
    message(SEND_ERROR "a refused sweep made its directory")
  endif()
endfunction()

# vpsim why --sample: the baseline and every saving carry their interval (the sum of the two
# runs' half-widths), and a saving's interval holds the full runs' saving.
function(case_why)
  run(r why ${quick_sample} --only vertex_alu.vector_latency --pairs 0 --json -j 1)
  if(NOT r_rc EQUAL 0)
    message(FATAL_ERROR "exit ${r_rc}:\n${r}")
  endif()
  string(JSON saved GET "${r_out}" ranking 0 saved)
  string(JSON hw GET "${r_out}" ranking 0 saved_half_width)
  string(JSON base_hw GET "${r_out}" baseline sample cycles_half_width)
  execute_process(COMMAND ${VPSIM} run --json --no-progress OUTPUT_VARIABLE full1)
  execute_process(COMMAND ${VPSIM} run --json --no-progress --set vertex_alu.vector_latency=4 OUTPUT_VARIABLE full2)
  string(JSON c1 GET "${full1}" cycles)
  string(JSON c2 GET "${full2}" cycles)
  math(EXPR true_saved "${c1} - ${c2}")
  string(REGEX REPLACE "\\..*" "" hw "${hw}")
  math(EXPR low "${saved} - ${hw}")
  math(EXPR high "${saved} + ${hw}")
  if(NOT base_hw GREATER 0 OR NOT hw GREATER 0 OR true_saved LESS low OR true_saved GREATER high)
    message(SEND_ERROR "sampled saving ${saved} ± ${hw} (baseline ± ${base_hw}) against the full runs' ${true_saved}")
  else()
    message(STATUS "ok: full runs' saving ${true_saved} in [${low}, ${high}]")
  endif()
  expect(0 "baseline +[0-9,]+ ± [0-9,]+ cycles \\(sampled" why ${quick_sample} --only vertex_alu.vector_latency
         --pairs 0 -j 1)
endfunction()

# vpsim why --sample on a scene sampling refuses: refused before any run (exit 2), naming why.
function(case_why_refused)
  expect(2 "vpsim why: --sample refused: .*strip.json: too short to sample" why ${SC}/strip.json --sample
         --out ${WORK}/w)
  file(GLOB ran ${WORK}/w/points/*)
  if(ran)
    message(SEND_ERROR "a refused why ran points: ${ran}")
  endif()
endfunction()

if(NOT COMMAND case_${CASE})
  message(FATAL_ERROR "unknown case '${CASE}'")
endif()
cmake_language(CALL case_${CASE})
