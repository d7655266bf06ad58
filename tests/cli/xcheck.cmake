# vpsim xcheck: a short random run passes and reports its figures (text, JSON, SystemC); a coverage hole.
# Run by ctest (tests/CMakeLists.txt): cmake -DVPSIM=... -DSRC=... -DWORK=... [-DSANITIZE=...] -P tests/cli/xcheck.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(EX ${SRC}/examples/decl)
set(XE ${SRC}/examples/exec)
set(SH ${SRC}/examples/shaders)
set(SC ${SRC}/examples/scenes)
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)  # expect(code regex args...)

# xcheck: a short run passes and reports its figures.
expect(0 "mismatches: 0.*coverage: complete.*arrays/s" xcheck --random 20000 --seed 7)
expect(0 "\"mismatches\": 0" xcheck --no-corpus --random 2000 --seed 3 --json)
expect(0 "mismatches: 0" xcheck --systemc --random 300 --seed 5)
expect(1 "coverage hole" xcheck --no-corpus --random 10 --seed 1)
