# vpsim check: the declaration rules with the shader rules.
# Run by ctest (tests/CMakeLists.txt): cmake -DVPSIM=... -DSRC=... -DWORK=... [-DSANITIZE=...] -P tests/cli/check.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(EX ${SRC}/examples/decl)
set(XE ${SRC}/examples/exec)
set(SH ${SRC}/examples/shaders)
set(SC ${SRC}/examples/scenes)
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)  # expect(code regex args...)

# check: declaration rules 1-17 with the shader rules.
expect(0 "accepted" check --decl ${XE}/quad.decl --shader ${SH}/transform.vsh)
expect(1 "rejected.*D17" check --decl ${EX}/header_example.decl --shader ${SH}/transform.vsh)
expect(1 "rejected.*D16" check --decl ${EX}/ff_normal_short4.decl)
expect(0 "accepted" check --decl ${EX}/ff_normal_short4.decl --shader ${SH}/transform.vsh)
file(WRITE ${WORK}/ports.vsh "vs.1.1\nm4x4 oPos, v0, c0\nadd oD0, c1, c2\n")
expect(1 "\"valid\": false.*\"rule\": \"V4\".*\"source\": \"shader\"" check --decl ${XE}/quad.decl --shader ${WORK}/ports.vsh --json)
expect(2 "nosuch.vsh" check --decl ${XE}/quad.decl --shader ${WORK}/nosuch.vsh)
