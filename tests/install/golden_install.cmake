# ctests "install: ...": the golden library's component installed into a scratch prefix, and used
# from there as another project would (docs/dpi.md, "Installing and finding the library").
#   CASE=install       cmake --install BUILD --component golden: exactly the component's files
#   CASE=pkgconfig     a C program built with `pkg-config --cflags --libs vpsim-golden`, run
#   CASE=find_package  a C project with find_package(vpsim-golden 0.1) built and run; 0.2 refused
#   CASE=ldd           ldd of the installed library lists exactly the dependencies docs/dpi.md names
# Variables: CASE, BUILD (vpsim's build tree), SRC, PREFIX (the scratch prefix), WORK, CC.
set(lib ${PREFIX}/lib/libvpsim_golden_c.so)

function(run_consumer exe)
  execute_process(COMMAND ${exe} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "consumer: libvpsim_golden_c [0-9.]+ ABI 1: 4 events")
    message(FATAL_ERROR "the consumer ${exe}: exit ${rc}\n${out}${err}")
  endif()
  message(STATUS "${out}")
endfunction()

if(CASE STREQUAL "install")
  file(REMOVE_RECURSE ${PREFIX})
  execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${PREFIX} --component golden
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cmake --install --component golden: exit ${rc}\n${out}${err}")
  endif()
  file(GLOB_RECURSE got RELATIVE ${PREFIX} LIST_DIRECTORIES false ${PREFIX}/*)
  list(FILTER got EXCLUDE REGEX "vpsim-goldenTargets-[a-z]+\\.cmake$")  # one per build type
  list(SORT got)
  set(want include/vpsim/vpsim_golden.h lib/cmake/vpsim-golden/vpsim-goldenConfig.cmake
      lib/cmake/vpsim-golden/vpsim-goldenConfigVersion.cmake lib/cmake/vpsim-golden/vpsim-goldenTargets.cmake
      lib/libvpsim_golden_c.so lib/libvpsim_golden_c.so.0 lib/libvpsim_golden_c.so.0.1.0 lib/pkgconfig/vpsim-golden.pc
      share/vpsim/dpi/vpsim_golden_pkg.sv share/vpsim/python/vpsim_golden.py)
  list(SORT want)
  if(NOT got STREQUAL want)
    message(FATAL_ERROR "the component golden installed\n  ${got}\nexpected\n  ${want}")
  endif()
  message(STATUS "installed: ${got}")
elseif(CASE STREQUAL "pkgconfig")
  file(REMOVE_RECURSE ${WORK})
  file(MAKE_DIRECTORY ${WORK})
  set(ENV{PKG_CONFIG_PATH} ${PREFIX}/lib/pkgconfig)
  execute_process(COMMAND pkg-config --cflags --libs vpsim-golden RESULT_VARIABLE rc OUTPUT_VARIABLE flags
                  ERROR_VARIABLE err OUTPUT_STRIP_TRAILING_WHITESPACE)
  execute_process(COMMAND pkg-config --modversion vpsim-golden OUTPUT_VARIABLE version OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0 OR NOT flags MATCHES "-lvpsim_golden_c")
    message(FATAL_ERROR "pkg-config --cflags --libs vpsim-golden: exit ${rc}: ${flags}${err}")
  endif()
  separate_arguments(flag_list UNIX_COMMAND "${flags}")
  execute_process(COMMAND ${CC} -Wall -Wextra -o ${WORK}/consumer ${SRC}/tests/install/consumer.c ${flag_list}
                          -Wl,-rpath,${PREFIX}/lib
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cc consumer.c $(pkg-config --cflags --libs vpsim-golden): exit ${rc}\n${out}${err}")
  endif()
  message(STATUS "pkg-config: vpsim-golden ${version}: ${flags}")
  run_consumer(${WORK}/consumer)
elseif(CASE STREQUAL "find_package")
  file(REMOVE_RECURSE ${WORK})
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${SRC}/tests/install -B ${WORK}/b -DCMAKE_PREFIX_PATH=${PREFIX}
                          -DCMAKE_C_COMPILER=${CC} -DCMAKE_BUILD_TYPE=Release
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cmake (find_package(vpsim-golden 0.1)): exit ${rc}\n${out}${err}")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK}/b RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cmake --build (the find_package consumer): exit ${rc}\n${out}${err}")
  endif()
  run_consumer(${WORK}/b/consumer)
  # The version file: 0.x promises only the same minor version.
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${SRC}/tests/install -B ${WORK}/b2 -DCMAKE_PREFIX_PATH=${PREFIX}
                          -DCMAKE_C_COMPILER=${CC} -DWANT=0.2
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0 OR NOT err MATCHES "compatible with requested version \"0.2\"")
    message(FATAL_ERROR "find_package(vpsim-golden 0.2) should be refused by the version file: exit ${rc}\n${out}${err}")
  endif()
  message(STATUS "find_package(vpsim-golden 0.2) refused (the installed version is 0.1.x)")
elseif(CASE STREQUAL "ldd")
  execute_process(COMMAND ldd ${lib} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "ldd ${lib}: exit ${rc}\n${out}${err}")
  endif()
  string(REGEX MATCHALL "[^ \t\n/]+\\.so[.0-9]*" names "${out}")
  list(FILTER names EXCLUDE REGEX "^linux-vdso")  # the kernel's, no file
  list(REMOVE_DUPLICATES names)
  list(SORT names)
  # docs/dpi.md: the backquoted names in the lines between the two markers.
  file(READ ${SRC}/docs/dpi.md doc)
  string(REGEX MATCH "<!-- ldd: begin -->.*<!-- ldd: end -->" section "${doc}")
  if(section STREQUAL "")
    message(FATAL_ERROR "docs/dpi.md: no <!-- ldd: begin --> ... <!-- ldd: end --> section")
  endif()
  string(REGEX MATCHALL "`[^`]+\\.so[.0-9]*`" documented "${section}")
  string(REPLACE "`" "" documented "${documented}")
  list(SORT documented)
  if(NOT names STREQUAL documented)
    message(FATAL_ERROR "ldd ${lib} lists\n  ${names}\ndocs/dpi.md (\"Run-time dependencies\") names\n  ${documented}\n${out}")
  endif()
  message(STATUS "ldd and docs/dpi.md agree: ${names}")
else()
  message(FATAL_ERROR "golden_install.cmake: unknown CASE ${CASE}")
endif()
