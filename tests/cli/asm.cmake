# vpsim asm / disasm, one ctest per behaviour (tests/CMakeLists.txt, vpsim_cli_cases): the
# examples assembled and disassembled, errors located, every opcode round-trips.
# Run by ctest: cmake -DVPSIM=... -DSRC=... -DCASE=... -DWORK=... [-DSANITIZE=...] -P tests/cli/asm.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(SH ${SRC}/examples/shaders)
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)  # expect(code regex args...)

# asm and disasm of an example shader.
function(case_example)
  expect(0 "0xFFFE0101" asm ${SH}/transform.vsh)
  expect(0 "m4x4 oPos, v0, c0" disasm ${SH}/transform.vsh)
endfunction()

# An assembly error names file:line:column; a bad token stream names the rule.
function(case_errors)
  file(WRITE ${WORK}/badreg.vsh "vs.1.1\nmov r0, v16\n")
  expect(2 "badreg.vsh:2:9: error" asm ${WORK}/badreg.vsh)
  file(WRITE ${WORK}/bad.hex "FFFE0101 00000001 800F0000\n")
  expect(2 "error B" disasm ${WORK}/bad.hex)
endfunction()

# asm -> disasm -> asm is the identity on every opcode.
function(case_round_trip)
  execute_process(COMMAND ${VPSIM} asm ${SH}/all_opcodes.vsh -o ${WORK}/all.bin --const-tokens ${WORK}/all_defs.hex RESULT_VARIABLE rc)
  execute_process(COMMAND ${VPSIM} disasm ${WORK}/all.bin OUTPUT_VARIABLE t1 RESULT_VARIABLE rc1)
  file(WRITE ${WORK}/all_again.vsh "${t1}")
  execute_process(COMMAND ${VPSIM} asm ${WORK}/all_again.vsh -o ${WORK}/all_again.bin RESULT_VARIABLE rc2)
  file(READ ${WORK}/all.bin b1 HEX)
  file(READ ${WORK}/all_again.bin b2 HEX)
  if(NOT (rc EQUAL 0 AND rc1 EQUAL 0 AND rc2 EQUAL 0) OR NOT b1 STREQUAL b2 OR NOT EXISTS ${WORK}/all_defs.hex)
    message(SEND_ERROR "asm -> disasm -> asm is not the identity on all_opcodes.vsh")
  endif()
endfunction()

if(NOT COMMAND case_${CASE})
  message(FATAL_ERROR "tests/cli/asm.cmake: no case '${CASE}' (-DCASE=)")
endif()
cmake_language(CALL case_${CASE})
