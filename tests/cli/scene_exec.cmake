# vpsim scene-exec and ff-program, one ctest per behaviour (tests/CMakeLists.txt, vpsim_cli_cases):
# every example scene, the fast path equal to the interpreter, fixed-function state and draws, the
# device's caps.
# Run by ctest: cmake -DVPSIM=... -DSRC=... -DCASE=... -DWORK=... [-DSANITIZE=...] -P tests/cli/scene_exec.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(SC ${SRC}/examples/scenes)
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)  # expect(code regex args...)

function(case_scenes)
  # scene-exec: every example scene runs, and the fast path equals the interpreter bit for bit.
  # Every scene file under examples/scenes/ (subdirectories included), so a new one is covered.
  file(GLOB_RECURSE example_scenes LIST_DIRECTORIES false ${SRC}/examples/scenes/*.json)
  list(SORT example_scenes)
  list(LENGTH example_scenes n_example_scenes)
  if(n_example_scenes LESS 10)
    message(SEND_ERROR "found ${n_example_scenes} example scenes under ${SRC}/examples/scenes, expected at least 10")
  endif()
  expect(0 "10000" scene-exec --summary)
  foreach(scene_file ${example_scenes})
    file(RELATIVE_PATH scene ${SRC}/examples/scenes ${scene_file})
    execute_process(COMMAND ${VPSIM} scene-exec ${scene_file} --json
                    OUTPUT_VARIABLE fast RESULT_VARIABLE rc1)
    execute_process(COMMAND ${VPSIM} scene-exec ${scene_file} --json --reference
                    OUTPUT_VARIABLE ref RESULT_VARIABLE rc2)
    string(REPLACE "\"engine\": \"reference\"" "\"engine\": \"fast\"" ref "${ref}")  # the one line that names the engine
    if(NOT (rc1 EQUAL 0 AND rc2 EQUAL 0) OR NOT fast STREQUAL ref OR fast STREQUAL "")
      message(SEND_ERROR "scene-exec ${scene}: fast path and interpreter differ (rc ${rc1}/${rc2})")
    else()
      message(STATUS "ok: scene-exec ${scene} fast == reference")
    endif()
  endforeach()
endfunction()

# A scene naming a buffer that does not exist: the JSON pointer and the rule (exit 2).
function(case_bad_scene)
  file(WRITE ${WORK}/bad_scene.json "{\"buffers\": {}, \"commands\": [{\"op\": \"SetStreamSource\", \"stream\": 0, \"buffer\": \"nosuch\", \"stride\": 12}]}")
  expect(2 "bad_scene.json: /commands/0/buffer: expected the name of a vertex buffer" scene-exec ${WORK}/bad_scene.json)
endfunction()

function(case_ff_state)
  # The fixed-function state commands between programmable draws: applied by both executors, nothing drawn by them.
  file(WRITE ${WORK}/ff_state.json [=[{"buffers": {"vb": {"vertices": [[0, 0, 0], [1, 0, 0], [0, 1, 0]], "layout": ["FLOAT3"]}},
 "commands": [
  {"op": "CreateVertexShader", "name": "p", "declaration": {"text": "D3DVSD_STREAM(0), D3DVSD_REG(0, D3DVSDT_FLOAT3), D3DVSD_END()"},
   "function": {"asm": "vs.1.1\nmov oPos, v0"}},
  {"op": "SetTransform", "state": "WORLD", "matrix": [[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,5,1]]},
  {"op": "MultiplyTransform", "state": "VIEW", "matrix": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]},
  {"op": "SetLight", "index": 0, "light": {"type": "POINT", "diffuse": [1,1,1,1], "attenuation0": 1, "range": 10}},
  {"op": "LightEnable", "index": 0, "enable": true},
  {"op": "SetMaterial", "material": {"diffuse": [1,1,1,1]}},
  {"op": "SetViewport", "viewport": {"width": 800, "height": 600}},
  {"op": "SetRenderState", "state": "D3DRS_FOGVERTEXMODE", "value": "LINEAR"},
  {"op": "SetTextureStageState", "stage": 0, "state": "TEXTURETRANSFORMFLAGS", "value": "COUNT2"},
  {"op": "SetVertexShader", "fvf": "D3DFVF_XYZ|D3DFVF_NORMAL"},
  {"op": "SetVertexShader", "shader": "p"},
  {"op": "SetStreamSource", "stream": 0, "buffer": "vb", "stride": 12},
  {"op": "DrawPrimitive", "type": "trianglelist", "primitive_count": 1}]}]=])
  expect(0 "1 draw.*/commands/12 DrawPrimitive \\(shader \"p\"\\): 1 trianglelist, 3 vertices" scene-exec ${WORK}/ff_state.json)
  expect(0 "cycles per vertex" run ${WORK}/ff_state.json --no-progress)
  file(WRITE ${WORK}/ff_bad_light.json [=[{"commands": [{"op": "SetLight", "index": 2, "light": {"type": "SPOT", "direction": [0,0,1], "attenuation0": 1, "phi": 4}}]}]=])
  expect(2 "ff_bad_light.json: /commands/0/light/phi: SetLight refuses the light" scene-exec ${WORK}/ff_bad_light.json)
endfunction()

function(case_ff_draws)
  # Fixed-function draws: run names the generated program; ff-program prints it with its counts, and
  # refuses a draw that does not exist or is not fixed function (exit 2); a state over the device's
  # caps is refused at the draw naming the cap (3 lights with MaxActiveLights 2).
  expect(0 "fixed-function draws +2: fixed function \\([0-9]+ instructions, [0-9]+ slots\\)" run ${SC}/ff_mixed.json --no-progress)
  expect(0 "/commands/16 DrawIndexedPrimitive .*fixed function \\([0-9]+ instructions\\)" scene-exec ${SC}/ff_mixed.json)
  expect(0 "; draw 1: /commands/16 DrawIndexedPrimitive.*m4x4 oPos, v0, c0.*; inputs: POSITION=v0 NORMAL=v3\n; [0-9]+ instructions, [0-9]+ slots" ff-program ${SC}/ff_mixed.json --draw 1)
  expect(2 "draw 0 \\(/commands/5 DrawIndexedPrimitive\\) is not fixed function" ff-program ${SC}/ff_mixed.json --draw 0)
  expect(2 "no draw 9: the scene has 4 draws" ff-program ${SC}/ff_mixed.json --draw 9)
endfunction()

function(case_ff_counts)
  # --counts: NVIDIA's published counts (7, 18, 126) beside vpsim's programs for those configurations;
  # it compiles its own states, so a SCENE with it is an error.
  expect(0 "transform, 1 directional light, 1 texture coordinate +7 +[0-9]+ +[0-9]+ +[0-9]+ .*1 specular directional light.* +18 +[0-9]+ .*17 point lights +126 +[0-9]+ .*Tom's Hardware" ff-program --counts)
  expect(2 "--counts compiles its own configurations: it takes no SCENE or --draw" ff-program --counts ${SC}/ff_mixed.json)
  expect(2 "a SCENE is required \\(or --counts\\)" ff-program)
  expect(2 "compressed.json: none of its 1 draws is fixed function" ff-program ${SC}/compressed.json)
  expect(2 "--preset nosuch: no such preset; valid presets: nv20" ff-program ${SC}/ff_mixed.json --preset nosuch)
endfunction()

# The device's caps: listed by presets, and a state over them refused at the draw naming the cap
# (3 lights with MaxActiveLights 2).
function(case_caps)
  expect(0 "caps +MaxActiveLights.*nv20 +8 +4 +0 +64" presets)
  file(WRITE ${WORK}/ff_3lights.json [=[{"buffers": {"vb": {"vertices": [[0, 0, 0, 0, 0, 1], [1, 0, 0, 0, 0, 1], [0, 1, 0, 0, 0, 1]], "layout": ["FLOAT3", "FLOAT3"]}},
 "commands": [
  {"op": "SetVertexShader", "fvf": "D3DFVF_XYZ|D3DFVF_NORMAL"},
  {"op": "LightEnable", "index": 0, "enable": true},
  {"op": "LightEnable", "index": 1, "enable": true},
  {"op": "LightEnable", "index": 2, "enable": true},
  {"op": "SetStreamSource", "stream": 0, "buffer": "vb", "stride": 24},
  {"op": "DrawPrimitive", "type": "trianglelist", "primitive_count": 1}]}]=])
  expect(0 "fixed function" run ${WORK}/ff_3lights.json --no-progress --preset nv20)
  expect(0 "/commands/5 DrawPrimitive \\(shader \"FVF D3DFVF_XYZ\\|D3DFVF_NORMAL: fixed function" scene-exec ${WORK}/ff_3lights.json --preset nv20)
  expect(1 "ff_3lights.json: /commands/5: fixed function: 3 lights are enabled .*MaxActiveLights is 2" run ${WORK}/ff_3lights.json --no-progress --set fixed_function.max_active_lights=2)
endfunction()

if(NOT COMMAND case_${CASE})
  message(FATAL_ERROR "tests/cli/scene_exec.cmake: no case '${CASE}' (-DCASE=)")
endif()
cmake_language(CALL case_${CASE})
