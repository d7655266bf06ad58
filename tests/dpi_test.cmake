# ctest "dpi: ...": a SystemVerilog testbench (tb/dpi/decl_dpi_tb.sv) whose expectations come only
# from the golden model's DPI-C package (model/capi/vpsim_golden_pkg.sv over libvpsim_golden_c.so),
# built with Verilator's --binary; stimulus from `vpsim xcheck --dump-arrays`. It must pass on
# rtl/decl_decoder.sv and catch the planted bug of decl_decoder_bug.sv (tests/rtl_variants/decl_decoder_bug.patch,
# applied by the build). Variables: VPSIM, SRC, WORK, LIB (the library file), VARIANTS (the build's RTL variants).
file(REMOVE_RECURSE ${WORK}/dump)
file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND ${VPSIM} xcheck --dump-arrays ${WORK}/dump --random 2000 --seed 3 RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "vpsim xcheck --dump-arrays: exit ${rc}\n${out}${err}")
endif()
include(${CMAKE_CURRENT_LIST_DIR}/dpi_verilate.cmake)
dpi_verilate(decl_dpi_tb "the DPI testbench" ${SRC}/rtl/decl_decoder.sv ${VARIANTS}/decl_decoder_bug.sv
             ${SRC}/tb/dpi/decl_dpi_tb.sv)
foreach(mode good bug)
  if(mode STREQUAL bug)
    set(arg +bug)
  else()
    set(arg +seed=1)
  endif()
  execute_process(COMMAND ${WORK}/obj/Vdecl_dpi_tb +arrays=${WORK}/dump/arrays.txt ${arg} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REGEX MATCH "vpsim_golden_pkg: [0-9]+ events matched[^\n]*" summary "${out}")
  if(mode STREQUAL good AND (NOT rc EQUAL 0 OR NOT out MATCHES "decl_dpi_tb: PASSED"))
    message(SEND_ERROR "the DPI testbench on rtl/decl_decoder.sv: exit ${rc}\n${out}${err}")
  elseif(mode STREQUAL bug AND (rc EQUAL 0 OR NOT out MATCHES "event model ELEMENT[^\n]* \\| rtl ELEMENT"))
    message(SEND_ERROR "the DPI testbench did not catch the planted bug: exit ${rc}\n${out}${err}")
  else()
    message(STATUS "ok: ${mode}: exit ${rc}: ${summary}")
  endif()
endforeach()
