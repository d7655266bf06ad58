# vpsim asm / disasm / check / exec on real-style shader sources (issue 13), one ctest per behaviour
# (tests/CMakeLists.txt, vpsim_cli_cases): D3D9 vs_1_1 input, the preprocessor, the
# examples/shaders/corpus shaders, the strict profile, diagnostics placed in the source.
# Invoked by ctest: cmake -DVPSIM=... -DSRC=... -DCASE=... -DWORK=... -P tests/cli/vs_sources.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(CO ${SRC}/examples/shaders/corpus)
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)  # expect(code regex args...)

function(case_d3d9)
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
endfunction()

function(case_preprocessor)
  # The preprocessor: -D, -I, and errors at the original file:line through an include.
  file(MAKE_DIRECTORY ${WORK}/pp/inc)
  file(WRITE ${WORK}/pp/inc/regs.h "#define POS r0\n#define LOAD(r) mov r, v0\n")
  file(WRITE ${WORK}/pp/bad.h "// an include with a typo on its line 2\nmov r1, v0.xyzq\n")
  file(WRITE ${WORK}/pp/main.vsh "#include <regs.h>\nvs.1.1\nLOAD(POS)\n#ifdef WITH_BAD\n#include \"bad.h\"\n#endif\nmov oPos, POS\n")
  expect(2 "main.vsh:1:1: error: preprocessor: .*regs.h" asm pp/main.vsh)
  expect(0 "0x00000001 0x800F0000 0x90E40000" asm pp/main.vsh -I pp/inc)
  expect(2 "pp/bad.h:2:15: error: 'q' is not a swizzle component" asm pp/main.vsh -I pp/inc -D WITH_BAD)
  expect(0 "accepted" check --decl ${SRC}/examples/shaders/corpus/pnt.decl --shader pp/main.vsh -I pp/inc)
  expect(2 "pp/bad.h:2:15" check --decl ${SRC}/examples/shaders/corpus/pnt.decl --shader pp/main.vsh -I pp/inc -DWITH_BAD)
  expect(0 "mov r0, v0" disasm pp/main.vsh -I pp/inc)
endfunction()

function(case_corpus)
  # The corpus (examples/shaders/corpus/corpus.txt): each shader assembles, its bytecode
  # round-trips through disasm, check accepts it with its declaration, and exec runs it on its
  # vertex buffer with the same bits on the fast path and the reference interpreter.
  set(CO ${SRC}/examples/shaders/corpus)
  file(STRINGS ${CO}/corpus.txt corpus_lines REGEX "^[a-z]")
  set(corpus_count 0)
  foreach(line IN LISTS corpus_lines)
    string(REGEX REPLACE " +" ";" f "${line}")
    list(GET f 0 shader)
    list(GET f 1 layout)
    list(GET f 2 vb)
    set(types)
    list(LENGTH f nf)
    if(nf GREATER 4)
      list(SUBLIST f 4 -1 types)
    endif()
    get_filename_component(stem ${shader} NAME_WE)
    set(decl ${CO}/${layout})
    set(extra)
    if(shader MATCHES "^d9_")
      set(decl ${WORK}/${stem}.decl)
      set(extra --decl-out ${decl})
      foreach(t IN LISTS types)
        list(APPEND extra --dcl-type ${t})
      endforeach()
    endif()
    expect(0 "-" asm ${CO}/${shader} -o ${stem}.bin ${extra})
    expect(0 "-" disasm ${stem}.bin -o ${stem}.dis.vsh)
    expect(0 "-" asm ${stem}.dis.vsh -o ${stem}.again.bin)
    file(READ ${WORK}/${stem}.bin b1 HEX)
    file(READ ${WORK}/${stem}.again.bin b2 HEX)
    if(NOT b1 STREQUAL b2 OR b1 STREQUAL "")
      message(SEND_ERROR "${shader}: the bytecode does not survive asm -> disasm -> asm")
    endif()
    expect(0 "accepted" check --decl ${decl} --shader ${CO}/${shader})
    execute_process(COMMAND ${VPSIM} exec --decl ${decl} --shader ${CO}/${shader} --stream 0=${CO}/${vb} --json
                    OUTPUT_VARIABLE fast RESULT_VARIABLE rc1 ERROR_VARIABLE e1 WORKING_DIRECTORY ${WORK})
    execute_process(COMMAND ${VPSIM} exec --decl ${decl} --shader ${CO}/${shader} --stream 0=${CO}/${vb} --json --reference
                    OUTPUT_VARIABLE ref RESULT_VARIABLE rc2 ERROR_VARIABLE e2 WORKING_DIRECTORY ${WORK})
    if(NOT rc1 EQUAL 0 OR NOT rc2 EQUAL 0 OR NOT fast STREQUAL ref OR NOT fast MATCHES "\"vertices\"")
      message(SEND_ERROR "${shader}: exec failed or the fast path differs from the reference\n${e1}${e2}")
    else()
      message(STATUS "ok: exec ${shader} (fast path = reference)")
    endif()
    math(EXPR corpus_count "${corpus_count} + 1")
  endforeach()
  if(corpus_count LESS 25)
    message(SEND_ERROR "the corpus has ${corpus_count} shaders, fewer than 25")
  endif()
endfunction()

function(case_strict_profile)
  # The strict profile options reproduce the D3D9 errors the d3d8 profile only warns about.
  expect(0 "warning V5 \\(temp-uninit\\) at instruction 6 .*mov reads r7.w before it is written"
         check --decl ${CO}/pnt.decl --shader ${CO}/sdk_bump.vsh)
  expect(1 "rejected.*error V5 \\(temp-uninit\\).*r7.w" check --decl ${CO}/pnt.decl --shader ${CO}/sdk_bump.vsh --profile temps=strict)
  expect(2 "masks=d3d8\\|strict" check --decl ${CO}/pnt.decl --profile masks=loose)
endfunction()

function(case_placement)
  # check places an assembly source's validation diagnostics at the instruction's file:line:column,
  # through includes.
  expect(0 "sdk_bump.vsh:11:1: warning V5 \\(temp-uninit\\) at instruction 6" check --decl ${CO}/pnt.decl --shader ${CO}/sdk_bump.vsh)
  file(WRITE ${WORK}/pp/uninit.h "\n  mov oD0, r5\n")
  file(WRITE ${WORK}/pp/uses.vsh "vs.1.1\nmov oPos, v0\n#include \"uninit.h\"\n")
  expect(1 "pp/uninit.h:2:3: error V5 \\(temp-uninit\\) at instruction 1 .*mov reads r5.xyzw, and the shader never writes r5"
         check --decl ${CO}/pnt.decl --shader pp/uses.vsh --profile temps=strict)
  expect(1 "\"place\": \"pp/uninit.h:2:3\"" check --decl ${CO}/pnt.decl --shader pp/uses.vsh --profile temps=strict --json)
endfunction()

if(NOT COMMAND case_${CASE})
  message(FATAL_ERROR "tests/cli/vs_sources.cmake: no case '${CASE}' (-DCASE=)")
endif()
cmake_language(CALL case_${CASE})
