# vpsim asm / disasm / check / exec on real-style shader sources (issue 13): D3D9 vs_1_1 input,
# the preprocessor, the examples/shaders/corpus shaders. Output and exit codes.
# Invoked by ctest: cmake -DVPSIM=... -DSRC=... -DWORK=... -P cli_vs_sources.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

# expect(<exit code> <regex on stdout+stderr or "-"> args...)
function(expect code regex)
  execute_process(COMMAND ${VPSIM} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                  WORKING_DIRECTORY ${WORK})
  set(all "${out}${err}")
  if(NOT rc EQUAL code)
    message(SEND_ERROR "vpsim ${ARGN}: exit ${rc}, expected ${code}\n${all}")
  elseif(NOT regex STREQUAL "-" AND NOT all MATCHES "${regex}")
    message(SEND_ERROR "vpsim ${ARGN}: output does not match '${regex}'\n${all}")
  else()
    message(STATUS "ok: vpsim ${ARGN}")
  endif()
endfunction()

# D3D9 vs_1_1: without --d3d9 (and the D3D8 spelling vs.1.1) a dcl_ line names the flag.
file(WRITE ${WORK}/nine8.vsh "vs.1.1\ndcl_position v0\nmov oPos, v0\n")
expect(2 "nine8.vsh:2:1: error: 'dcl_position' is a D3D9 input declaration.*--d3d9" asm nine8.vsh)
# With it: the D3D8 declaration, which check accepts with the shader.
file(WRITE ${WORK}/nine.vsh "vs_1_1\ndcl_position v0\ndcl_texcoord0 v7\ndef c8, 1, 0.5, 0, 1\nm4x4 oPos, v0, c0\nmul oT0.xy, v7, c8\n")
expect(0 "-" asm --d3d9 nine8.vsh --decl-out nine8.decl)
expect(0 "-" asm nine.vsh -o nine.bin --decl-out nine.decl --dcl-type texcoord0=SHORT2)
file(READ ${WORK}/nine.decl nine_decl)
if(NOT nine_decl MATCHES "D3DVSD_REG\\(D3DVSDE_TEXCOORD0, D3DVSDT_SHORT2\\)" OR NOT nine_decl MATCHES "D3DVSD_CONST\\(8, 1\\)")
  message(SEND_ERROR "asm --decl-out: unexpected declaration\n${nine_decl}")
endif()
expect(0 "accepted" check --decl nine.decl --shader nine.bin)
expect(0 "accepted" check --decl nine.decl --shader nine.vsh)
expect(2 "--dcl-type normal=FLOAT3: the shader has no dcl_normal line" asm nine.vsh --decl-out x.decl --dcl-type normal=FLOAT3)
expect(2 "need a D3D9 vs_1_1 source" asm ${SRC}/examples/shaders/transform.vsh --decl-out x.decl)
expect(0 "note: 2 dcl_ line\\(s\\) make a D3D8 declaration" asm nine.vsh)
