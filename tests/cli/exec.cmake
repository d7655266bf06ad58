# vpsim exec, one ctest per behaviour (tests/CMakeLists.txt, vpsim_cli_cases): the example vertex
# buffer fetched and shaded; stream, constant and profile errors.
# Run by ctest: cmake -DVPSIM=... -DSRC=... -DCASE=... -DWORK=... [-DSANITIZE=...] -P tests/cli/exec.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(EX ${SRC}/examples/decl)
set(XE ${SRC}/examples/exec)
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)  # expect(code regex args...)

# The example vertex buffer fetched and shaded: the fast path (text, --json from a first vertex),
# --reference, a stream of fewer bytes (vertices that fit), --help.
function(case_shade)
  expect(0 "exec" exec --help)
  expect(0 "passthrough.vsh: 4 vertices \\(0..3\\), fast path.*vertex 1\n  oPos = \\(1, -1, 0.5, 1\\)\n  oD0  = \\(1, 0.2509804, 0, 0.5019608\\)\n  oT0  = \\(-2, 300, 0, 1\\)"
         exec --decl ${XE}/quad.decl --shader ${XE}/passthrough.vsh --stream 0=${XE}/quad.vb)
  expect(0 "^\\{\"vertices\": \\[\n  \\{\"index\": 2, \"oPos\": \\[1, 1, 0.5, 1\\], \"oD0\": \\[0, 1, 0, 0\\], \"oD1\": \\[0, 0, 0, 1\\], \"oFog\": 0, \"oPts\": 0, \"oT\": \\[\\[32767, -32768, 0, 1\\], \\[0, 0, 0, 0\\]"
         exec --decl ${XE}/quad.decl --shader ${XE}/passthrough.vsh --stream 0=${XE}/quad.vb --json --first 2 --count 1)
  expect(0 "reference interpreter.*vertex 1\n  oPos = \\(3, -2, 0.5, 1\\)"
         exec --decl ${XE}/quad.decl --shader ${XE}/transform.vsh --stream 0=${XE}/quad.vb --const c0=1,0,0,0.5 --reference)
  expect(0 "3 vertices \\(0..2\\)" exec --decl ${XE}/quad.decl --shader ${XE}/passthrough.vsh --stream 0=${XE}/quad.vb:24)
endfunction()

# A stream whose stride or size does not fit the declaration, an unbound stream, a register the
# declaration does not load: exit 1, each named.
function(case_stream_errors)
  expect(1 "quad.vb: stream 0: stride 16 is smaller than the declared vertex size 20"
         exec --decl ${XE}/quad.decl --shader ${XE}/passthrough.vsh --stream 0=${XE}/quad.vb:16)
  expect(1 "quad.vb: stream 0, vertex 4: v0 \\(FLOAT3 at offset 0\\) needs bytes 80..91, past the end of the 80-byte buffer"
         exec --decl ${XE}/quad.decl --shader ${XE}/passthrough.vsh --stream 0=${XE}/quad.vb --count 5)
  expect(1 "quad.decl: stream 0: not bound" exec --decl ${XE}/quad.decl --shader ${XE}/passthrough.vsh)
  expect(1 "error D17.*reads v0" exec --decl ${EX}/header_example.decl --shader ${XE}/passthrough.vsh --stream 0=${XE}/quad.vb)
endfunction()

# Bad --const and --stream arguments, a missing buffer file: exit 2.
function(case_usage)
  expect(2 "--const c96=1,2,3,4: c96 is out of range"
         exec --decl ${XE}/quad.decl --shader ${XE}/passthrough.vsh --stream 0=${XE}/quad.vb --const c96=1,2,3,4)
  expect(2 "--const c1=1,2,3: expected four"
         exec --decl ${XE}/quad.decl --shader ${XE}/passthrough.vsh --stream 0=${XE}/quad.vb --const c1=1,2,3)
  expect(2 "--stream 16=" exec --decl ${XE}/quad.decl --shader ${XE}/passthrough.vsh --stream 16=${XE}/quad.vb)
  expect(2 "missing.vb: cannot open" exec --decl ${XE}/quad.decl --shader ${XE}/passthrough.vsh --stream 0=${WORK}/missing.vb)
endfunction()

# --profile: the output registers' reset value and the a0 rounding (a bad value refused).
function(case_profile)
  expect(0 "\"oD1\": \\[0, 0, 0, 0\\]" exec --decl ${XE}/quad.decl --shader ${XE}/passthrough.vsh --stream 0=${XE}/quad.vb --profile outputs=zero --count 1 --json)
  expect(2 "a0=floor\\|round" exec --decl ${XE}/quad.decl --shader ${XE}/passthrough.vsh --stream 0=${XE}/quad.vb --profile a0=nearest)
endfunction()

if(NOT COMMAND case_${CASE})
  message(FATAL_ERROR "tests/cli/exec.cmake: no case '${CASE}' (-DCASE=)")
endif()
cmake_language(CALL case_${CASE})
