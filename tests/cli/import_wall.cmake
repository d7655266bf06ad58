# vpsim import behind its wall (docs/import.md, "Reading behind a wall"), one behaviour per CASE:
#   time        a model that reads longer than --time-limit: exit 2, the file and the limit named, nothing written
#   memory      a model that needs more than --memory-limit: exit 2, the file and the limit named, nothing written
#   crash       a model libassimp crashes on: exit 2, the file and the signal named, nothing written
#   limits      --time-limit and --memory-limit outside their ranges are refused (exit 2)
#   finite      --time nan|inf|-inf|1e308 and a model whose second frame is NaN are refused, what and where named
#   utf8        a name in the model that is not UTF-8 is written as U+FFFD: the scene and report are JSON
#   one-frame   a keyframe model with one frame imports without --frame (frame 0 alone, no tweening)
#   reload      every scene tests/cli/import.cmake wrote loads and runs (scene-exec)
# Invoked by ctest: cmake -DVPSIM=... -DWORK=... -DCASE=... -DPYTHON=... -DINPUTS=... -P import_wall.cmake.
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)
set(M /usr/share/assimp/models)

function(nothing_left)
  file(GLOB left ${WORK}/empty/*)
  if(left)
    message(SEND_ERROR "a refused import left files behind: ${left}")
  endif()
endfunction()

if(NOT CASE STREQUAL "reload")
  file(REMOVE_RECURSE ${WORK})
  file(MAKE_DIRECTORY ${WORK}/empty ${WORK}/out)
endif()

if(CASE STREQUAL "time")
  # 160,000 vertices, 318,402 triangles: Assimp's post-processing takes seconds, far over 0.1 s.
  execute_process(COMMAND ${PYTHON} ${INPUTS} grid-obj ${WORK}/grid.obj 400 COMMAND_ERROR_IS_FATAL ANY)
  expect(2 "grid.obj: reading the model took longer than the time limit of 0.1 s \\(--time-limit\\); nothing written"
         import grid.obj -o empty/g.json --time-limit 0.1)
  nothing_left()
elseif(CASE STREQUAL "memory")
  # The same grid needs far more than 64 MiB (its text alone is 8 MB, Assimp's copies several times that).
  execute_process(COMMAND ${PYTHON} ${INPUTS} grid-obj ${WORK}/grid.obj 400 COMMAND_ERROR_IS_FATAL ANY)
  expect(2 "grid.obj: reading the model needs more memory than the limit of 64 MiB \\(--memory-limit\\); nothing written"
         import grid.obj -o empty/g.json --memory-limit 64)
  nothing_left()
elseif(CASE STREQUAL "crash")
  execute_process(COMMAND ${PYTHON} ${INPUTS} crash-smd ${WORK}/crash.smd COMMAND_ERROR_IS_FATAL ANY)
  # (SIGSEGV here; in a sanitizer build its SEGV handler may end the child by SIGABRT or exit status 1)
  expect(2 "crash.smd: the reading process crashed on the model \\((killed by signal [0-9]+|exit status 1)[^)]*\\).*; nothing written"
         import crash.smd -o empty/c.json)
  nothing_left()
elseif(CASE STREQUAL "limits")
  foreach(v 0 0.05 nan inf 86401)
    expect(2 "--time-limit [^:]*: expected seconds from 0.1 to 86400" import ${M}/OBJ/spider.obj -o empty/a.json --time-limit ${v})
  endforeach()
  foreach(v 0 63 1048577)
    expect(2 "--memory-limit ${v}: expected MiB from 64 to 1048576" import ${M}/OBJ/spider.obj -o empty/a.json --memory-limit ${v})
  endforeach()
  nothing_left()
elseif(CASE STREQUAL "finite")
  foreach(v nan inf -inf)
    expect(2 "BCN_Epileptic.X: --time ${v}: not a finite number" import ${M}/X/BCN_Epileptic.X -o empty/x.json --time=${v})
  endforeach()
  expect(2 "BCN_Epileptic.X: --time 1e\\+308: at animation 0's [0-9.]+ ticks per second the tick is not finite"
         import ${M}/X/BCN_Epileptic.X -o empty/x.json --time=1e308)
  expect(2 "faerie.md2: --time nan: not a finite number" import ${M}/MD2/faerie.md2 -o empty/f.json --time=nan)
  execute_process(COMMAND ${PYTHON} ${INPUTS} nan-md2 ${WORK}/nan.md2 COMMAND_ERROR_IS_FATAL ANY)
  expect(2 "nan.md2: mesh 0 \\(\"[^\"]*\"\\), vertex [0-9]+: the position in the second frame \\(nan, [^)]*\\) is not finite"
         import nan.md2 -o empty/n.json)
  nothing_left()
elseif(CASE STREQUAL "utf8")
  execute_process(COMMAND ${PYTHON} ${INPUTS} latin1-obj ${WORK}/latin1.obj COMMAND_ERROR_IS_FATAL ANY)
  # The summary on stderr escapes what is not ASCII (docs/limits.md): U+FFFD as \xef\xbf\xbd.
  expect(0 "mesh 0 \"caf\\\\xef\\\\xbf\\\\xbd\"" import latin1.obj -o out/l.json)
  file(READ ${WORK}/out/l.import.json rep)
  string(JSON name GET "${rep}" meshes 0 name)
  if(NOT name STREQUAL "caf�")
    message(SEND_ERROR "latin1.obj: the report's mesh name is '${name}', expected caf + U+FFFD")
  endif()
  expect(0 "total: 1 primitives" scene-exec out/l.json)
elseif(CASE STREQUAL "one-frame")
  execute_process(COMMAND ${PYTHON} ${INPUTS} md3-one-frame ${WORK}/one.md3 COMMAND_ERROR_IS_FATAL ANY)
  expect(0 "one.md3: 3 vertices, 1 triangles, 1 draws" import one.md3 -o out/one.json)
  file(READ ${WORK}/out/one.import.json rep)
  string(JSON frame GET "${rep}" frame)
  string(JSON frames GET "${rep}" frames_in_file)
  if(NOT frame EQUAL 0 OR NOT frames EQUAL 1)
    message(SEND_ERROR "one.md3: the report's frame ${frame} of ${frames}, expected frame 0 of 1")
  endif()
  expect(0 "1 draw, .*total: 1 primitives" scene-exec out/one.json)
elseif(CASE STREQUAL "reload")
  # The scenes the import test wrote (its fixture): each loads and runs.
  file(GLOB scenes ${WORK}/out/*.json)
  list(FILTER scenes EXCLUDE REGEX "\\.import\\.json$")
  list(LENGTH scenes n)
  if(n LESS 7)
    message(SEND_ERROR "only ${n} scenes in ${WORK}/out: run the import test first")
  endif()
  foreach(s ${scenes})
    string(REGEX REPLACE "\\.json$" ".import.json" r ${s})
    file(READ ${r} rep)
    if(rep MATCHES "\"blending\": \"indexed\"")
      # Indexed vertex blending needs MaxVertexBlendMatrixIndex at least the import's --max-blend-index (20 in tests/cli/import.cmake).
      expect(0 "cycles per vertex" run ${s} --preset nv20 --set fixed_function.max_vertex_blend_matrix_index=20 --no-progress)
    else()
      expect(0 "total: [1-9][0-9]* primitives" scene-exec ${s})
    endif()
  endforeach()
else()
  message(FATAL_ERROR "import_wall.cmake: CASE=${CASE}: unknown")
endif()
