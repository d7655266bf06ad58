# Runs the vpsim binary on the example files and checks outputs and exit codes.
# Invoked by ctest: cmake -DVPSIM=... -DSRC=... -DWORK=... -P cli_tests.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(EX ${SRC}/examples/decl)
set(failures 0)

include(${CMAKE_CURRENT_LIST_DIR}/cli_expect.cmake)  # expect(code regex args...)

expect(0 "Usage" --help)
expect(0 "--lenient" decl --help)
expect(0 "--systemc" xcheck --help)
expect(2 "-" nosuchcommand)
expect(2 "-" decl)
expect(0 "valid \\(strict mode\\).*offset +32 +v7 +FLOAT2" decl ${EX}/header_example.decl)
expect(0 "stream 0: 40 bytes" decl ${EX}/header_example.hex)
expect(0 "constant c9 " decl ${EX}/two_streams.h)
expect(0 "normal of the surface of v0" decl ${EX}/tessellated.decl)
expect(1 "error D4 \\(reserved-bits-set\\) at token \\[1\\] 0x40020020" decl ${EX}/bad_reserved.decl)
expect(0 "warning D4" decl --lenient ${EX}/bad_reserved.decl)
expect(1 "error D16" decl --fixed-function ${EX}/ff_normal_short4.decl)
expect(0 "-" decl --reads v0,v3 ${EX}/ff_normal_short4.decl)
expect(1 "error D17.*v5" decl --reads v0,v5 ${EX}/ff_normal_short4.decl)
expect(2 "v16" decl --reads v0,v16 ${EX}/ff_normal_short4.decl)
expect(2 "cannot open" decl ${WORK}/missing.decl)
expect(2 "-" decl --const-count 0 ${EX}/header_example.decl)

# decl --fvf: an FVF code's equivalent declaration and layout (D3D8's order and sizes), refusals naming the rule.
expect(0 "FVF 0x00000152 = D3DFVF_XYZ\\|D3DFVF_NORMAL\\|D3DFVF_DIFFUSE\\|D3DFVF_TEX1: 36 bytes per vertex.*D3DVSD_REG\\(D3DVSDE_NORMAL, D3DVSDT_FLOAT3\\).*offset +24 +v5 +D3DCOLOR.*offset +28 +v7 +FLOAT2"
       decl --fvf "D3DFVF_XYZ|D3DFVF_NORMAL|D3DFVF_DIFFUSE|D3DFVF_TEX1")
expect(0 "\"stride\": 32,\n  \"pretransformed\": true" decl --fvf 0x1C4 --json)
expect(0 "D3DVSD_REG\\(D3DVSDE_BLENDWEIGHT, D3DVSDT_FLOAT4\\).*D3DVSD_SKIP\\(1\\)" decl --fvf XYZB5 --format text)
expect(1 "FVF xyzrhw-normal" decl --fvf "XYZRHW|NORMAL")
expect(2 "FVF syntax: unknown name \"FOO\"" decl --fvf "XYZ|FOO")
expect(2 "-" decl --fvf XYZ ${EX}/header_example.decl)

# JSON: the documented keys.
expect(0 "\"valid\": true.*\"streams\".*\"type\": \"FLOAT3\".*\"constants\"" decl --json ${EX}/two_streams.h)
expect(1 "\"valid\": false.*\"rule\": \"D4\".*\"token\": \"0x40020020\"" decl --json ${EX}/bad_reserved.decl)

# Conversions round-trip: text -> hex -> c -> text gives the same tokens.
execute_process(COMMAND ${VPSIM} decl --format hex ${EX}/two_streams.h OUTPUT_FILE ${WORK}/a.hex RESULT_VARIABLE rc1)
execute_process(COMMAND ${VPSIM} decl --format c ${WORK}/a.hex -o ${WORK}/a.h RESULT_VARIABLE rc2)
execute_process(COMMAND ${VPSIM} decl --format hex ${WORK}/a.h OUTPUT_VARIABLE h2 RESULT_VARIABLE rc3)
file(READ ${WORK}/a.hex h1)
if(NOT (rc1 EQUAL 0 AND rc2 EQUAL 0 AND rc3 EQUAL 0) OR NOT h1 STREQUAL h2)
  message(SEND_ERROR "conversion round trip differs:\n${h1}\n---\n${h2}")
endif()

# A syntax error names file:line:column.
file(WRITE ${WORK}/syntax.decl "D3DVSD_STREAM(0),\nD3DVSD_REG(0, D3DVSDT_FLOAT9)\n")
expect(2 "syntax.decl:2:15" decl ${WORK}/syntax.decl)


# exec: fetch + the fast path (or --reference) on the example vertex buffer.
set(XE ${SRC}/examples/exec)
expect(0 "exec" exec --help)
expect(0 "passthrough.vsh: 4 vertices \\(0..3\\), fast path.*vertex 1\n  oPos = \\(1, -1, 0.5, 1\\)\n  oD0  = \\(1, 0.2509804, 0, 0.5019608\\)\n  oT0  = \\(-2, 300, 0, 1\\)"
       exec --decl ${XE}/quad.decl --shader ${XE}/passthrough.vsh --stream 0=${XE}/quad.vb)
expect(0 "^\\{\"vertices\": \\[\n  \\{\"index\": 2, \"oPos\": \\[1, 1, 0.5, 1\\], \"oD0\": \\[0, 1, 0, 0\\], \"oD1\": \\[0, 0, 0, 1\\], \"oFog\": 0, \"oPts\": 0, \"oT\": \\[\\[32767, -32768, 0, 1\\], \\[0, 0, 0, 0\\]"
       exec --decl ${XE}/quad.decl --shader ${XE}/passthrough.vsh --stream 0=${XE}/quad.vb --json --first 2 --count 1)
expect(0 "reference interpreter.*vertex 1\n  oPos = \\(3, -2, 0.5, 1\\)"
       exec --decl ${XE}/quad.decl --shader ${XE}/transform.vsh --stream 0=${XE}/quad.vb --const c0=1,0,0,0.5 --reference)
expect(0 "3 vertices \\(0..2\\)" exec --decl ${XE}/quad.decl --shader ${XE}/passthrough.vsh --stream 0=${XE}/quad.vb:24)
expect(1 "quad.vb: stream 0: stride 16 is smaller than the declared vertex size 20"
       exec --decl ${XE}/quad.decl --shader ${XE}/passthrough.vsh --stream 0=${XE}/quad.vb:16)
expect(1 "quad.vb: stream 0, vertex 4: v0 \\(FLOAT3 at offset 0\\) needs bytes 80..91, past the end of the 80-byte buffer"
       exec --decl ${XE}/quad.decl --shader ${XE}/passthrough.vsh --stream 0=${XE}/quad.vb --count 5)
expect(1 "quad.decl: stream 0: not bound" exec --decl ${XE}/quad.decl --shader ${XE}/passthrough.vsh)
expect(1 "error D17.*reads v0" exec --decl ${EX}/header_example.decl --shader ${XE}/passthrough.vsh --stream 0=${XE}/quad.vb)
expect(2 "--const c96=1,2,3,4: c96 is out of range"
       exec --decl ${XE}/quad.decl --shader ${XE}/passthrough.vsh --stream 0=${XE}/quad.vb --const c96=1,2,3,4)
expect(2 "--const c1=1,2,3: expected four"
       exec --decl ${XE}/quad.decl --shader ${XE}/passthrough.vsh --stream 0=${XE}/quad.vb --const c1=1,2,3)
expect(2 "--stream 16=" exec --decl ${XE}/quad.decl --shader ${XE}/passthrough.vsh --stream 16=${XE}/quad.vb)
expect(2 "missing.vb: cannot open" exec --decl ${XE}/quad.decl --shader ${XE}/passthrough.vsh --stream 0=${WORK}/missing.vb)
expect(0 "\"oD1\": \\[0, 0, 0, 0\\]" exec --decl ${XE}/quad.decl --shader ${XE}/passthrough.vsh --stream 0=${XE}/quad.vb --profile outputs=zero --count 1 --json)
expect(2 "a0=floor\\|round" exec --decl ${XE}/quad.decl --shader ${XE}/passthrough.vsh --stream 0=${XE}/quad.vb --profile a0=nearest)

# check: declaration rules 1-17 with the shader rules.
set(SH ${SRC}/examples/shaders)
expect(0 "accepted" check --decl ${XE}/quad.decl --shader ${SH}/transform.vsh)
expect(1 "rejected.*D17" check --decl ${EX}/header_example.decl --shader ${SH}/transform.vsh)
expect(1 "rejected.*D16" check --decl ${EX}/ff_normal_short4.decl)
expect(0 "accepted" check --decl ${EX}/ff_normal_short4.decl --shader ${SH}/transform.vsh)
file(WRITE ${WORK}/ports.vsh "vs.1.1\nm4x4 oPos, v0, c0\nadd oD0, c1, c2\n")
expect(1 "\"valid\": false.*\"rule\": \"V4\".*\"source\": \"shader\"" check --decl ${XE}/quad.decl --shader ${WORK}/ports.vsh --json)
expect(2 "nosuch.vsh" check --decl ${XE}/quad.decl --shader ${WORK}/nosuch.vsh)

# asm / disasm
expect(0 "0xFFFE0101" asm ${SH}/transform.vsh)
expect(0 "m4x4 oPos, v0, c0" disasm ${SH}/transform.vsh)
file(WRITE ${WORK}/badreg.vsh "vs.1.1\nmov r0, v16\n")
expect(2 "badreg.vsh:2:9: error" asm ${WORK}/badreg.vsh)
file(WRITE ${WORK}/bad.hex "FFFE0101 00000001 800F0000\n")
expect(2 "error B" disasm ${WORK}/bad.hex)
execute_process(COMMAND ${VPSIM} asm ${SH}/all_opcodes.vsh -o ${WORK}/all.bin --const-tokens ${WORK}/all_defs.hex RESULT_VARIABLE rc)
execute_process(COMMAND ${VPSIM} disasm ${WORK}/all.bin OUTPUT_VARIABLE t1 RESULT_VARIABLE rc1)
file(WRITE ${WORK}/all_again.vsh "${t1}")
execute_process(COMMAND ${VPSIM} asm ${WORK}/all_again.vsh -o ${WORK}/all_again.bin RESULT_VARIABLE rc2)
file(READ ${WORK}/all.bin b1 HEX)
file(READ ${WORK}/all_again.bin b2 HEX)
if(NOT (rc EQUAL 0 AND rc1 EQUAL 0 AND rc2 EQUAL 0) OR NOT b1 STREQUAL b2 OR NOT EXISTS ${WORK}/all_defs.hex)
  message(SEND_ERROR "asm -> disasm -> asm is not the identity on all_opcodes.vsh")
endif()

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
file(WRITE ${WORK}/bad_scene.json "{\"buffers\": {}, \"commands\": [{\"op\": \"SetStreamSource\", \"stream\": 0, \"buffer\": \"nosuch\", \"stride\": 12}]}")
expect(2 "bad_scene.json: /commands/0/buffer: expected the name of a vertex buffer" scene-exec ${WORK}/bad_scene.json)
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
# Fixed-function draws: run names the generated program; ff-program prints it with its counts, and
# refuses a draw that does not exist or is not fixed function (exit 2); a state over the device's
# caps is refused at the draw naming the cap (3 lights with MaxActiveLights 2).
set(SC ${SRC}/examples/scenes)
expect(0 "fixed-function draws +2: fixed function \\([0-9]+ instructions, [0-9]+ slots\\)" run ${SC}/ff_mixed.json --no-progress)
expect(0 "/commands/16 DrawIndexedPrimitive .*fixed function \\([0-9]+ instructions\\)" scene-exec ${SC}/ff_mixed.json)
expect(0 "; draw 1: /commands/16 DrawIndexedPrimitive.*m4x4 oPos, v0, c0.*; inputs: POSITION=v0 NORMAL=v3\n; [0-9]+ instructions, [0-9]+ slots" ff-program ${SC}/ff_mixed.json --draw 1)
expect(2 "draw 0 \\(/commands/5 DrawIndexedPrimitive\\) is not fixed function" ff-program ${SC}/ff_mixed.json --draw 0)
expect(2 "no draw 9: the scene has 4 draws" ff-program ${SC}/ff_mixed.json --draw 9)
expect(2 "compressed.json: none of its 1 draws is fixed function" ff-program ${SC}/compressed.json)
expect(2 "--preset nosuch: no such preset; valid presets: nv20" ff-program ${SC}/ff_mixed.json --preset nosuch)
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

# params: the tables, overrides, and errors that list the valid keys.
expect(0 "post_transform_cache.*entries.*24" params)
expect(0 "entries.*16" params --set post_transform_cache.entries=16)
expect(2 "valid keys" params --set post_transform_cache.entrys=16)
expect(2 "expected uint" params --set post_transform_cache.entries=abc)

# xcheck: a short run passes and reports its figures.
expect(0 "mismatches: 0.*coverage: complete.*arrays/s" xcheck --random 20000 --seed 7)
expect(0 "\"mismatches\": 0" xcheck --no-corpus --random 2000 --seed 3 --json)
expect(0 "mismatches: 0" xcheck --systemc --random 300 --seed 5)
expect(1 "coverage hole" xcheck --no-corpus --random 10 --seed 1)

# The binary finds its data (xcheck's corpus) relative to itself, not in the source tree: copies
# of the binary with the build's share/vpsim, in the build layout (<dir>/vpsim, <dir>/share) and
# the install layout (<dir>/bin/vpsim, <dir>/share), check the copied corpus; a lone copy says
# where it looked; VPSIM_DATA_DIR names a data directory.
get_filename_component(vpsim_dir ${VPSIM} DIRECTORY)
get_filename_component(real_work ${WORK} REALPATH)  # the binary names paths as /proc/self/exe does
set(moved_build ${real_work}/moved_build)
set(moved_install ${real_work}/moved_install)
set(alone ${real_work}/alone)
file(COPY ${VPSIM} ${vpsim_dir}/share DESTINATION ${moved_build})
file(COPY ${VPSIM} DESTINATION ${moved_install}/bin)
file(COPY ${vpsim_dir}/share DESTINATION ${moved_install})
file(COPY ${VPSIM} DESTINATION ${alone})
foreach(layout "${moved_build}/vpsim" "${moved_install}/bin/vpsim" "VPSIM_DATA_DIR=${moved_build}/share/vpsim ${alone}/vpsim")
  separate_arguments(cmd UNIX_COMMAND "${layout}")
  execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=VPSIM_DATA_DIR ${cmd} xcheck --random 10 --seed 1 --json
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(want_corpus "${moved_build}/share/vpsim/tb/corpus")
  if(layout MATCHES "moved_install")
    set(want_corpus "${moved_install}/share/vpsim/tb/corpus")
  endif()
  set(corpus "")
  set(arrays 0)
  if(rc EQUAL 0)
    string(JSON corpus GET "${out}" corpus)
    string(JSON arrays GET "${out}" arrays)
  endif()
  if(NOT rc EQUAL 0 OR NOT corpus STREQUAL want_corpus OR NOT arrays GREATER 100)
    message(SEND_ERROR "moved binary (${layout}): exit ${rc}, corpus '${corpus}' (want ${want_corpus}), ${arrays} arrays\n${err}")
  else()
    message(STATUS "ok: moved binary (${layout}) checks ${corpus}")
  endif()
endforeach()
execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=VPSIM_DATA_DIR ${alone}/vpsim xcheck --random 10
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(FIND "${err}" "tb/corpus not found in vpsim's data directories (looked in: ${alone}/share/vpsim, ${real_work}/share/vpsim" at)
if(NOT rc EQUAL 2 OR at EQUAL -1 OR NOT err MATCHES "--corpus DIR or --no-corpus")
  message(SEND_ERROR "lone binary without its data: exit ${rc}, expected 2 naming where it looked\n${out}${err}")
else()
  message(STATUS "ok: lone binary says where it looked for tb/corpus")
endif()

# run: the timing model on the default scene and on every example scene.
expect(0 "cycles per vertex.*ALU utilisation.*co-issue rate.*ACMR / ATVR.*top stalls.*simulation speed" run --no-progress)
expect(0 "\"cycles_per_vertex\"" run --json --no-progress)
expect(0 "vertex_alu.*coissue" params)
# The vertices leaving the timing model equal scene-exec's, byte for byte (only the engine differs).
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
foreach(scene_file ${example_scenes})
  file(RELATIVE_PATH scene ${SRC}/examples/scenes ${scene_file})
  string(REGEX REPLACE "\\.json$" "" scene "${scene}")
  string(REPLACE "/" "_" scene "${scene}")  # run_default, run_patches_bezier ...
  run_equals_scene_exec(${scene_file} ${WORK}/run_${scene})
endforeach()
# config.json records every parameter and the scene's hash, and is accepted back by --config.
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
# run --topology: the channel table with resolved amounts, and the DOT graph; neither runs.
expect(0 "vertex_fetch_to_alu +vertex_fetch.out +vertex_alu.in +9 .*step order \\(downstream first\\): output, vertex_alu"
       run --topology --set vertex_fetch.input_buffers=9)
expect(0 "^$" run --topology-dot ${WORK}/topology.dot)
file(READ ${WORK}/topology.dot dot)
if(NOT dot MATCHES "^digraph vpsim.*\"vertex_fetch\" -> \"vertex_alu\" \\[label=\"vertex_fetch_to_alu")
  message(SEND_ERROR "run --topology-dot: not the pipeline's DOT graph:\n${dot}")
endif()
expect(2 "cannot|No such" run --topology-dot ${WORK}/no/such/dir/t.dot)
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
# Presets: the list, one printed (a --config file), --preset with --set on top, config.json
# recording it, an unknown name; bench calibrate within tolerance.
expect(0 "nv20 .*GeForce3.*nv2a .*Xbox.*nv25 .*GeForce4 Ti 4600.*136.0 M" presets)
execute_process(COMMAND ${VPSIM} presets nv2a OUTPUT_FILE ${WORK}/nv2a.json RESULT_VARIABLE rc)
expect(0 "engines +uint +engines +2 \\* " params --config ${WORK}/nv2a.json)
expect(0 "clock_mhz +double +MHz +300.0 \\*.*engines +uint +engines +3 \\* " params --preset nv25 --set vertex_alu.engines=3)
expect(2 "--preset nv30: no such preset; valid presets: nv20, nv2a, nv25" run --preset nv30 --quiet)
expect(0 "vertices/s at 233 MHz.*bottleneck +the vertex ALU" run --preset nv2a --no-progress)
expect(0 "^$" run --preset nv2a --quiet --out ${WORK}/preset_run)
file(READ ${WORK}/preset_run/config.json pcfg)
if(NOT pcfg MATCHES "\"preset\": \"nv2a\"" OR NOT pcfg MATCHES "\"clock_mhz\": 233.0")
  message(SEND_ERROR "run --preset: config.json does not record the preset and its values:\n${pcfg}")
endif()
file(WRITE ${WORK}/nosource.json "{\"schema\": \"vpsim-preset-1\", \"params\": {\"vertex_alu\": {\"engines\": {\"value\": 2}}}}")
expect(2 "nosource.json: /params/vertex_alu/engines: a preset value is" run --config ${WORK}/nosource.json --quiet)
expect(0 "nv20 .*ok .*nv2a .*ok .*nv25 .*ok .*every preset within its tolerance" bench calibrate)
expect(1 "OUT.*a preset is outside its tolerance" bench calibrate --set vertex_fetch.prefetch_lines=0)
expect(2 "not a directory" bench coissue ${WORK}/no_such_dir)
expect(2 "exactly one of --write FILE and --check FILE" bench reference ${SRC}/examples/scenes)
# A workload the presets' caps refuse (indexed blending: MaxVertexBlendMatrixIndex 0 on every
# preset) is reported as refused, naming the cap; the suite goes on (exit 0).
file(REMOVE_RECURSE ${WORK}/refused_suite)
file(MAKE_DIRECTORY ${WORK}/refused_suite)
file(COPY ${SRC}/examples/workloads/ff_blend_indexed.json ${SRC}/examples/workloads/ff_directional_1.json
     DESTINATION ${WORK}/refused_suite)
expect(0 "ff_blend_indexed +refused by the preset's caps \\(MaxVertexBlendMatrixIndex\\).*ff_directional_1 +1\\.0" bench coissue ${WORK}/refused_suite)
expect(0 "6 rows" bench reference ${WORK}/refused_suite --write ${WORK}/refused_suite.stats)
file(READ ${WORK}/refused_suite.stats rstats)
if(NOT rstats MATCHES "\"workload\":\"ff_blend_indexed\",\"preset\":\"nv20\",\"refused\":\"/commands/[0-9]+: fixed function: [^\"]*MaxVertexBlendMatrixIndex is 0")
  message(SEND_ERROR "bench reference: no refused row naming the cap for ff_blend_indexed:\n${rstats}")
endif()
if(NOT rstats MATCHES "\"workload\":\"ff_directional_1\",\"preset\":\"nv25\",\"cycles\":[1-9]")
  message(SEND_ERROR "bench reference: ff_directional_1 did not run beside the refused workload:\n${rstats}")
endif()
# JSON numbers a double cannot hold, values beyond float, and bytes that are not UTF-8 in a --set
# value are parameter or scene errors that say where (not nlohmann's exceptions).
file(WRITE ${WORK}/overflow.json "{\n  \"vertex_alu\": {\"window\": 1e999}\n}\n")
expect(2 "overflow.json: line 2, column 28: 1e999 does not fit a 64-bit float" params --config ${WORK}/overflow.json)
file(READ ${SRC}/examples/scenes/skinning.json skin)
string(REPLACE "\"size\": 2.0" "\"size\": 1e300" skin_big "${skin}")
file(WRITE ${WORK}/skin_big.json "${skin_big}")
string(REPLACE "\"size\": 2.0" "\"size\": 1e999" skin_inf "${skin}")
file(WRITE ${WORK}/skin_inf.json "${skin_inf}")
expect(2 "skin_big.json: /buffers/sheet/size: 1e\\+?300 is outside the 32-bit float range" scene-exec ${WORK}/skin_big.json)
expect(2 "skin_inf.json: line 5, column [0-9]+: 1e999 does not fit a 64-bit float" run ${WORK}/skin_inf.json --quiet)

# Parameters: errors list the valid keys; bad values are refused.

expect(2 "valid keys" run --set vertex_alu.engine=2)
expect(2 "vertex_alu.engines" run --set vertex_alu.engines=0)
expect(2 "enum" run --set vertex_alu.coissue=sometimes)
expect(2 "needs --out" run --vertices)
expect(2 "bad_scene.json: /commands/0/buffer" run ${WORK}/bad_scene.json)
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

# Patches: every tessellation example runs on the timing model and prints the tessellator's
# figures (its vertices equal scene-exec's: the loop over every example scene above).
file(GLOB patch_scenes ${SRC}/examples/scenes/patches/*.json)
list(LENGTH patch_scenes n_patch_scenes)
if(n_patch_scenes LESS 5)
  message(SEND_ERROR "found ${n_patch_scenes} patch examples, expected at least 5")
endif()
foreach(f ${patch_scenes})
  expect(0 "tessellator .*generated vertices.*control points read" run ${f} --no-progress)
endforeach()
expect(0 "DrawRectPatch.*tessellated: DrawRectPatch BEZIER CUBIC 4x4, 81 generated vertices" scene-exec ${SRC}/examples/scenes/patches/bezier.json)
# Patch rules broken in a scene: exit 1 naming the command and the rule.
file(READ ${SRC}/examples/scenes/patches/bezier.json bez)
string(REPLACE "\"width\": 4" "\"width\": 3" bad_size "${bez}")
file(WRITE ${WORK}/bad_patch_size.json "${bad_size}")
expect(1 "/commands/4: DrawRectPatch: T2" scene-exec ${WORK}/bad_patch_size.json)
expect(1 "/commands/4: DrawRectPatch: T2" run ${WORK}/bad_patch_size.json --no-progress)
string(REPLACE "\"op\": \"DeletePatch\",\n   \"handle\": 1" "\"op\": \"DeletePatch\",\n   \"handle\": 7" bad_delete "${bez}")
file(WRITE ${WORK}/bad_patch_delete.json "${bad_delete}")
expect(1 "/commands/7/handle: DeletePatch: T8" run ${WORK}/bad_patch_delete.json --no-progress)
string(REPLACE "\"basis\": \"bezier\"" "\"basis\": \"hermite\"" bad_basis "${bez}")
file(WRITE ${WORK}/bad_patch_basis.json "${bad_basis}")
expect(2 "/commands/4/info/basis: expected a basis" run ${WORK}/bad_patch_basis.json --no-progress)
# The tessellation profile: a named choice changes the output, on both executors alike.
execute_process(COMMAND ${VPSIM} scene-exec ${SRC}/examples/scenes/patches/bezier.json --json --reference
                --tess-profile winding=ccw OUTPUT_VARIABLE ccw_ref RESULT_VARIABLE rc1)
execute_process(COMMAND ${VPSIM} run ${SRC}/examples/scenes/patches/bezier.json --tess-profile winding=ccw
                --out ${WORK}/patch_ccw --vertices --quiet RESULT_VARIABLE rc2)
file(READ ${WORK}/patch_ccw/vertices.json ccw_run)
string(REPLACE "\"engine\": \"timing\"" "\"engine\": \"reference\"" ccw_run "${ccw_run}")
execute_process(COMMAND ${VPSIM} scene-exec ${SRC}/examples/scenes/patches/bezier.json --json --reference
                OUTPUT_VARIABLE cw_ref)
if(NOT (rc1 EQUAL 0 AND rc2 EQUAL 0) OR NOT ccw_run STREQUAL ccw_ref OR ccw_ref STREQUAL cw_ref)
  message(SEND_ERROR "--tess-profile winding=ccw: run and scene-exec disagree, or the option changed nothing")
endif()
expect(2 "unknown tessellation option \"windng\".*winding=cw\\|ccw" run --tess-profile windng=ccw)
expect(2 "max-segments: expected an integer 1..4096" scene-exec --tess-profile max-segments=0)

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
