# ctest "dpi: ... vertex fetch ...": a SystemVerilog testbench (tb/dpi/vf_dpi_tb.sv) whose expectations
# come only from the golden model's DPI-C package (class fetch_model of model/capi/vpsim_golden_pkg.sv
# over libvpsim_golden_c.so), built with Verilator's --binary. It must pass on rtl/vertex_fetch.sv and
# catch the planted bug of vertex_fetch_bug.sv (tests/rtl_variants/vertex_fetch_bug.patch, applied by
# the build; its module is renamed here so that both units are in one build).
# Variables: SRC, WORK, LIB (the library file), VARIANTS (the build's RTL variants).
file(MAKE_DIRECTORY ${WORK})
file(READ ${VARIANTS}/vertex_fetch_bug.sv bug_text)
string(REGEX REPLACE "\nmodule vertex_fetch #" "\nmodule vertex_fetch_bug #" bug_text "${bug_text}")
if(NOT bug_text MATCHES "\nmodule vertex_fetch_bug #")
  message(FATAL_ERROR "${VARIANTS}/vertex_fetch_bug.sv: no 'module vertex_fetch #' line to rename")
endif()
file(WRITE ${WORK}/vertex_fetch_bug.sv "${bug_text}")
include(${CMAKE_CURRENT_LIST_DIR}/dpi_verilate.cmake)
dpi_verilate(vf_dpi_tb "the fetch DPI testbench" ${SRC}/rtl/vertex_fetch.sv ${WORK}/vertex_fetch_bug.sv
             ${SRC}/tb/dpi/vf_dpi_tb.sv)
foreach(mode good bug)
  if(mode STREQUAL "bug")
    set(arg +bug)
  else()
    set(arg +seed=1)
  endif()
  execute_process(COMMAND ${WORK}/obj/Vvf_dpi_tb ${arg} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REGEX MATCH "vf_dpi_tb: [0-9]+ draws, [^\n]*" summary "${out}")
  if(NOT out MATCHES "malformed declaration refused: the declaration is not valid: error D1" OR
     NOT out MATCHES "shader_model: oPos = \\(11, 22, 33, 44\\); malformed bytecode refused: token 1")
    message(SEND_ERROR "the fetch DPI testbench (${mode}): the malformed declaration's message or the shader_model check is missing\n${out}${err}")
  elseif(mode STREQUAL "good" AND (NOT rc EQUAL 0 OR NOT out MATCHES "vf_dpi_tb: PASSED"))
    message(SEND_ERROR "the fetch DPI testbench on rtl/vertex_fetch.sv: exit ${rc}\n${out}${err}")
  elseif(mode STREQUAL "bug" AND (rc EQUAL 0 OR NOT out MATCHES "v[0-9]+: model [0-9a-f]*3f800000[0-9a-f]* \\| rtl [0-9a-f]*3f000000"))
    message(SEND_ERROR "the fetch DPI testbench did not catch the planted bug (255 -> 0.5): exit ${rc}\n${out}${err}")
  else()
    message(STATUS "ok: ${mode}: exit ${rc}: ${summary}")
  endif()
endforeach()
