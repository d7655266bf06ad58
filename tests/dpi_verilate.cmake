# The build step of the DPI testbench ctests (dpi_test.cmake, dpi_fetch_test.cmake): Verilator's
# --binary of a top module over the golden DPI-C package and the library LIB, into WORK/obj, its C++
# compiled through ccache when there is one, the library found at run time through an rpath.
# dpi_verilate(TOP WHAT SOURCE...): WHAT names the testbench in the failure message.
function(dpi_verilate top what)
  find_program(CCACHE ccache)
  if(CCACHE)
    set(ENV{OBJCACHE} ${CCACHE})  # Verilator's generated makefile compiles through $(OBJCACHE)
  endif()
  get_filename_component(libdir ${LIB} DIRECTORY)
  execute_process(COMMAND verilator --binary -j 2 -Wno-fatal -Wno-lint -Wno-style --top-module ${top} -Mdir ${WORK}/obj
                          ${SRC}/model/capi/vpsim_golden_pkg.sv ${ARGN} ${LIB} -LDFLAGS "-Wl,-rpath,${libdir}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "verilator --binary (${what}): exit ${rc}\n${out}${err}")
  endif()
endfunction()
