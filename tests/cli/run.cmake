# vpsim run, one ctest per behaviour (tests/CMakeLists.txt, vpsim_cli_cases): every example scene's
# vertices equal scene-exec's; config.json and stats.json; --topology; --rtl decl_decoder; bad
# settings; a failed command leaves no files; VCD and trace; the order-queue warning; the assumed
# values the summary names.
# Run by ctest: cmake -DVPSIM=... -DSRC=... -DCASE=... -DWORK=... [-DSANITIZE=...] -P tests/cli/run.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(SC ${SRC}/examples/scenes)
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)  # expect(code regex args...)

# run: the timing model's summary on the default scene (text and JSON).
function(case_summary)
  expect(0 "cycles per vertex.*ALU utilisation.*co-issue rate.*ACMR / ATVR.*top stalls.*simulation speed" run --no-progress)
  expect(0 "\"cycles_per_vertex\"" run --json --no-progress)
  expect(0 "vertex_alu.*coissue" params)  # the parameters the summary's co-issue rate comes from
endfunction()

# run_equals_scene_exec(<scene file> <output dir>): `run --out DIR --vertices` against
# `scene-exec --json --reference`; also checks that config.json and stats.json were written.
function(run_equals_scene_exec file dir)
  file(REMOVE_RECURSE ${dir})
  execute_process(COMMAND ${VPSIM} run ${file} --out ${dir} --vertices --quiet RESULT_VARIABLE rc1)
  execute_process(COMMAND ${VPSIM} scene-exec ${file} --json --reference OUTPUT_VARIABLE ref RESULT_VARIABLE rc2)
  set(timed "")
  if(EXISTS ${dir}/vertices.json)
    file(READ ${dir}/vertices.json timed)
  endif()
  string(REPLACE "\"engine\": \"timing\"" "\"engine\": \"reference\"" timed "${timed}")
  if(NOT (rc1 EQUAL 0 AND rc2 EQUAL 0) OR NOT timed STREQUAL ref OR ref STREQUAL ""
     OR NOT EXISTS ${dir}/config.json OR NOT EXISTS ${dir}/stats.json)
    message(SEND_ERROR "run ${file}: timing-model vertices differ from scene-exec's, or files missing (rc ${rc1}/${rc2})")
  else()
    message(STATUS "ok: run ${file} vertices == scene-exec --reference")
  endif()
endfunction()

# The vertices leaving the timing model equal scene-exec's on every example scene, byte for byte
# (only the engine differs).
function(case_scenes)
  # Every scene file under examples/scenes/ (subdirectories included), so a new one is covered.
  file(GLOB_RECURSE example_scenes LIST_DIRECTORIES false ${SRC}/examples/scenes/*.json)
  list(SORT example_scenes)
  list(LENGTH example_scenes n_example_scenes)
  if(n_example_scenes LESS 10)
    message(FATAL_ERROR "expected the example scenes (>= 10), found ${n_example_scenes}")
  endif()
  foreach(scene_file ${example_scenes})
    file(RELATIVE_PATH scene ${SRC}/examples/scenes ${scene_file})
    string(REGEX REPLACE "\\.json$" "" scene "${scene}")
    string(REPLACE "/" "_" scene "${scene}")  # run_default, run_patches_bezier ...
    run_equals_scene_exec(${scene_file} ${WORK}/run_${scene})
  endforeach()
endfunction()

function(case_config)
  # config.json records every parameter and the scene's hash, and is accepted back by --config.
  expect(0 "-" run ${SC}/default.json --out ${WORK}/run_default --quiet)
  file(READ ${WORK}/run_default/config.json cfg)
  if(NOT cfg MATCHES "\"hash\": \"fnv1a64:[0-9a-f]+\"" OR NOT cfg MATCHES "\"vertex_alu\"")
    message(SEND_ERROR "config.json lacks the scene hash or the parameters:\n${cfg}")
  endif()
  expect(0 "cycles" run ${SRC}/examples/scenes/default.json --config ${WORK}/run_default/config.json --no-progress)
  file(READ ${WORK}/run_default/stats.json st)
  string(JSON adds ERROR_VARIABLE jerr GET "${st}" units vertex_alu cycles adds_up)
  if(NOT adds STREQUAL "ON")
    message(SEND_ERROR "stats.json: vertex_alu cycles do not add up (${adds} ${jerr})")
  endif()
endfunction()

function(case_topology)
  # run --topology: the channel table with resolved amounts, and the DOT graph; neither runs.
  expect(0 "vertex_fetch_to_alu +vertex_fetch.out +vertex_alu.in +9 .*step order \\(downstream first\\): output, vertex_alu"
         run --topology --set vertex_fetch.input_buffers=9)
  expect(0 "^$" run --topology-dot ${WORK}/topology.dot)
  file(READ ${WORK}/topology.dot dot)
  if(NOT dot MATCHES "^digraph vpsim.*\"vertex_fetch\" -> \"vertex_alu\" \\[label=\"vertex_fetch_to_alu")
    message(SEND_ERROR "run --topology-dot: not the pipeline's DOT graph:\n${dot}")
  endif()
  expect(2 "cannot|No such" run --topology-dot ${WORK}/no/such/dir/t.dot)
endfunction()

function(case_rtl)
  # run --rtl: the Verilated RTL declaration decoder in the pipeline; config.json and the summary
  # say so; an unknown unit lists the valid ones; parameters the RTL was not Verilated with fail.
  expect(0 "^$" run --rtl decl_decoder --quiet)
  expect(0 "RTL in the loop +decl_decoder \\(Verilated\\)" run --rtl decl_decoder --no-progress
         ${SRC}/examples/scenes/strip.json --out ${WORK}/run_rtl)
  file(READ ${WORK}/run_rtl/config.json cfg)
  if(NOT cfg MATCHES "\"rtl\": \\[\n *\"decl_decoder\"\n *\\]")
    message(SEND_ERROR "run --rtl: config.json does not record the RTL:\n${cfg}")
  endif()
  expect(2 "--rtl bogus: no RTL for this unit; valid values: decl_decoder" run --rtl bogus --quiet)
  expect(2 "max_length is 100, but the Verilated RTL was built with MAX_LENGTH=4096"
         run --rtl decl_decoder --set decl_decoder.max_length=100 --quiet)
  file(READ ${SRC}/examples/scenes/strip.json strip)
  string(JSON strip192 SET "${strip}" const_count 192)
  file(WRITE ${WORK}/strip192.json "${strip192}")
  expect(2 "const_count is 192, but the Verilated RTL was built with CONST_COUNT=96"
         run --rtl decl_decoder ${WORK}/strip192.json --quiet)
  expect(0 "^$" run ${WORK}/strip192.json --quiet)
endfunction()

# Bad arguments and a bad scene: exit 2.
function(case_bad_input)
  file(WRITE ${WORK}/bad_scene.json "{\"buffers\": {}, \"commands\": [{\"op\": \"SetStreamSource\", \"stream\": 0, \"buffer\": \"nosuch\", \"stride\": 12}]}")
  expect(2 "needs --out" run --vertices)
  expect(2 "bad_scene.json: /commands/0/buffer" run ${WORK}/bad_scene.json)
endfunction()

function(case_failed_command)
  # A command that fails mid-run: exit 1 naming the command, and no partial output files.
  file(WRITE ${WORK}/fail_scene.json "{\"buffers\": {\"b\": {\"layout\": [\"FLOAT4\"], \"vertices\": [[0,0,0,1],[1,0,0,1]]}},
   \"commands\": [
    {\"op\": \"CreateVertexShader\", \"name\": \"s\", \"declaration\": {\"text\": \"D3DVSD_STREAM(0), D3DVSD_REG(0, D3DVSDT_FLOAT4), D3DVSD_END()\"},
     \"function\": {\"asm\": \"vs.1.1\\nmov oPos, v0\\n\"}},
    {\"op\": \"SetVertexShader\", \"shader\": \"s\"},
    {\"op\": \"SetStreamSource\", \"stream\": 0, \"buffer\": \"b\", \"stride\": 16},
    {\"op\": \"DrawPrimitive\", \"type\": \"pointlist\", \"start_vertex\": 0, \"primitive_count\": 5}]}")
  file(REMOVE_RECURSE ${WORK}/run_fail)
  expect(1 "/commands/3.*vertex" run ${WORK}/fail_scene.json --out ${WORK}/run_fail --vertices --vcd ${WORK}/fail.vcd)
  file(GLOB leftovers ${WORK}/run_fail/* ${WORK}/fail.vcd*)
  if(leftovers)
    message(SEND_ERROR "a failed run left files behind: ${leftovers}")
  endif()
endfunction()

function(case_vcd_trace)
  # Waveform and trace.
  expect(0 "-" run ${SRC}/examples/scenes/strip.json --vcd ${WORK}/strip.vcd --trace ${WORK}/strip.trace.json --quiet)
  file(READ ${WORK}/strip.vcd vcd)
  if(NOT vcd MATCHES "\\$enddefinitions" OR NOT vcd MATCHES "\\$scope module vertex_alu" OR NOT vcd MATCHES "occupancy")
    message(SEND_ERROR "strip.vcd is not the expected waveform")
  endif()
  file(READ ${WORK}/strip.trace.json tr)
  string(JSON nev ERROR_VARIABLE jerr LENGTH "${tr}" traceEvents)
  if(jerr OR nev LESS 20 OR NOT tr MATCHES "\"vertex_alu.e0.ctx0\"" OR NOT tr MATCHES "\"ph\": \"X\"")
    message(SEND_ERROR "strip.trace.json is not a trace with unit tracks (${jerr})")
  else()
    message(STATUS "ok: trace with ${nev} events")
  endif()
endfunction()

function(case_order_queue)
  # The order-queue coupling counts the post-transform cache hits that share the queue: nv25's
  # default scene (6 contexts + 12 input buffers, ~4.8 references per shaded vertex) needs more than
  # its 64 references; nv20's (3 + 6) fits.
  expect(0 "caps +warning: output.order_queue = 64 references .* each shaded vertex brings [0-9.]+ references, so 18 vertices in flight need [0-9]+" run --preset nv25 --no-progress)
  execute_process(COMMAND ${VPSIM} run --preset nv20 --no-progress RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR "${out}${err}" MATCHES "output.order_queue = ")
    message(SEND_ERROR "vpsim run --preset nv20: exit ${rc} or an order-queue warning where the queue fits\n${out}${err}")
  endif()
endfunction()

function(case_assumptions)
  # The summary of a preset's run names the preset's assumed values that move results by more than
  # 10 % (model/presets/sensitivity.json, built in), each with its change; stats.json lists them; a
  # parameter the user sets is left out. Taken from the file, so a rewritten file stays covered.
  file(READ ${SRC}/model/presets/sensitivity.json sens)
  string(JSON npresets LENGTH "${sens}" presets)
  set(sens_checked 0)
  math(EXPR last "${npresets} - 1")
  foreach(i RANGE ${last})
    string(JSON preset MEMBER "${sens}" presets ${i})
    string(JSON nentries LENGTH "${sens}" presets ${preset})
    if(nentries EQUAL 0)
      continue()
    endif()
    string(JSON param GET "${sens}" presets ${preset} 0 param)
    string(JSON value GET "${sens}" presets ${preset} 0 value)
    string(REPLACE "." "\\." param_re "${param}")
    expect(0 "assumptions +${param_re} \\(assumed; [^)]*(% calibration rate|% cycles on|the caps refuse)"
           run ${SC}/strip.json --preset ${preset} --no-progress --out ${WORK}/assumptions_${preset})
    file(READ ${WORK}/assumptions_${preset}/stats.json st)
    string(JSON first ERROR_VARIABLE jerr GET "${st}" summary assumptions 0 param)
    if(jerr OR NOT first STREQUAL param)
      message(SEND_ERROR "stats.json of run --preset ${preset}: summary.assumptions[0].param is '${first}', expected ${param} (${jerr})")
    endif()
    execute_process(COMMAND ${VPSIM} run ${SC}/strip.json --preset ${preset} --set ${param}=${value} --no-progress
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0 OR out MATCHES "${param_re} \\(assumed")
      message(SEND_ERROR "run --preset ${preset} --set ${param}=${value}: exit ${rc}, or the summary still names ${param}\n${out}${err}")
    endif()
    math(EXPR sens_checked "${sens_checked} + 1")
  endforeach()
  if(sens_checked EQUAL 0)
    message(SEND_ERROR "model/presets/sensitivity.json lists no assumed value for any preset: nothing checked")
  endif()
endfunction()

function(case_assumptions_default)
  # Without a preset the built-in defaults are nv20's values: the summary names nv20's entries (the
  # main job's run says which guesses its result rests on); a --set of one leaves it out.
  expect(0 "assumptions +.*vertex_alu.vector_latency \\(assumed;" run ${SC}/strip.json --no-progress)
  execute_process(COMMAND ${VPSIM} run ${SC}/strip.json --no-progress --set vertex_alu.vector_latency=9
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out)
  if(NOT rc EQUAL 0 OR out MATCHES "vertex_alu.vector_latency \\(assumed")
    message(SEND_ERROR "run --set vertex_alu.vector_latency=9: exit ${rc} or the summary still names it\n${out}")
  endif()
endfunction()

if(NOT COMMAND case_${CASE})
  message(FATAL_ERROR "tests/cli/run.cmake: no case '${CASE}' (-DCASE=)")
endif()
cmake_language(CALL case_${CASE})
