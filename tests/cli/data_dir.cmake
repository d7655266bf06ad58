# The binary finds its data (xcheck's corpus) relative to itself: build and install layouts,
# VPSIM_DATA_DIR, and a lone copy that says where it looked.
# Run by ctest (tests/CMakeLists.txt): cmake -DVPSIM=... -DSRC=... -DWORK=... [-DSANITIZE=...] -P tests/cli/data_dir.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(EX ${SRC}/examples/decl)
set(XE ${SRC}/examples/exec)
set(SH ${SRC}/examples/shaders)
set(SC ${SRC}/examples/scenes)
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)  # expect(code regex args...)

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
