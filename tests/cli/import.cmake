# vpsim import on the command line: a scene that loads from another working directory, runs on a
# preset, the options, and bad input (exit 2, the file and the reason named, nothing written).
# Invoked by ctest: cmake -DVPSIM=... -DWORK=... -P tests/cli/import.cmake. Needs assimp-testmodels.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/out ${WORK}/elsewhere ${WORK}/empty)
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)
set(M /usr/share/assimp/models)

expect(0 "--max-blend-index" import --help)
expect(0 "1535 vertices, 1312 triangles, 19 draws.*not represented: mesh 10 \\(\"Zahn\"\\): 7 lines" import ${M}/OBJ/spider.obj -o out/spider.json)
foreach(f spider.json spider.import.json spider.m0.vb spider.m0.ib)
  if(NOT EXISTS ${WORK}/out/${f})
    message(SEND_ERROR "import wrote no ${f}")
  endif()
endforeach()
# The scene loads from any working directory: side files resolve against the scene's folder.
set(SAVED ${WORK})
set(WORK ${SAVED}/elsewhere)
expect(0 "primitives +1,312" run ../out/spider.json --preset nv2a --no-progress)
expect(0 "19 draws" scene-exec ../out/spider.json)
set(WORK ${SAVED})
# Skinned: non-indexed blending in 4-bone subsets by default; indexed with --max-blend-index.
expect(0 "54 bones;.*\"Torso\".*24 bones, non-indexed blending in [0-9]+ subsets, 0 weights dropped" import ${M}/X/BCN_Epileptic.X -o out/x.json --time 1)
expect(0 "cycles per vertex" run out/x.json --preset nv20 --no-progress)
expect(0 "\"Torso\".*24 bones, indexed blending in 2 subsets.*\"Head\".*20 bones, indexed blending in 1 subsets" import ${M}/X/BCN_Epileptic.X -o out/xi.json --max-blend-index 20)
expect(1 "MaxVertexBlendMatrixIndex is 0" run out/xi.json --preset nv20 --no-progress)
expect(0 "fixed function" run out/xi.json --preset nv20 --set fixed_function.max_vertex_blend_matrix_index=20 --no-progress)
# The vs.1.1 skinning program instead of fixed function, with SHORT4 normals.
expect(0 "declaration and vs.1.1 skinning program" import ${M}/X/BCN_Epileptic.X -o out/xs.json --effect skin-shader --compress)
expect(0 "cycles per vertex" run out/xs.json --preset nv2a --no-progress)
expect(2 "--compress: fixed function needs FLOAT3 normals" import ${M}/X/BCN_Epileptic.X -o empty/a.json --compress)
expect(2 "--effect glow: expected fixed-function or skin-shader" import ${M}/X/BCN_Epileptic.X -o empty/a.json --effect glow)
# Keyframes: two frames tweened.
expect(0 "tweening frames 3 and 7" import ${M}/MD2/sydney.md2 -o out/t.json --frame 3,7 --time 0.5)
expect(0 "tweening: P = POSITION \\* \\(1 - 0.5\\) \\+ POSITION2 \\* 0.5" ff-program out/t.json)
expect(0 "ACMR" import ${M}/OBJ/spider.obj -o out/o.json --index-order optimised)
expect(0 "ACMR" import ${M}/OBJ/spider.obj -o out/r.json --index-order random --seed 7)

# Bad input: exit 2, the file and the reason, nothing written.
expect(2 "nothere.obj: cannot open: no such file" import nothere.obj -o empty/a.json)
file(WRITE ${WORK}/junk.obj "this is not a model\n")
expect(2 "junk.obj: " import junk.obj -o empty/a.json)
expect(2 "testline.obj: the model has no triangles" import ${M}/OBJ/testline.obj -o empty/a.json)
expect(2 "sydney.md2: --frame 500: the file has 198 frames" import ${M}/MD2/sydney.md2 -o empty/a.json --frame 0,500)
expect(2 "--frame x: expected A or A,B" import ${M}/MD2/sydney.md2 -o empty/a.json --frame x)
expect(2 "--index-order sideways: expected file, optimised or random" import ${M}/OBJ/spider.obj -o empty/a.json --index-order sideways)
expect(2 "spider.obj: --time: the model has no animation" import ${M}/OBJ/spider.obj -o empty/a.json --time 1)
expect(2 "--max-blend-index 1" import ${M}/OBJ/spider.obj -o empty/a.json --max-blend-index 1)
expect(2 "not expected: --bogus" import ${M}/OBJ/spider.obj --bogus)
# (a directory that does not exist is made: tests/cli/import_wall.cmake, CASE new-dir; one that
# cannot be made, under a plain file, is an error)
file(WRITE ${WORK}/plain_file "x")
expect(2 "cannot make the directory .*plain_file/sub" import ${M}/OBJ/spider.obj -o plain_file/sub/a.json)
file(GLOB left ${WORK}/empty/*)
if(left)
  message(SEND_ERROR "bad input left files behind: ${left}")
endif()
