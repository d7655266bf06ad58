# vpsim's --help, a subcommand's --help, and an unknown command or missing argument.
# Run by ctest (tests/CMakeLists.txt): cmake -DVPSIM=... -DSRC=... -DWORK=... [-DSANITIZE=...] -P tests/cli/main.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(EX ${SRC}/examples/decl)
set(XE ${SRC}/examples/exec)
set(SH ${SRC}/examples/shaders)
set(SC ${SRC}/examples/scenes)
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)  # expect(code regex args...)


expect(0 "Usage" --help)
expect(0 "--lenient" decl --help)
expect(0 "--systemc" xcheck --help)
