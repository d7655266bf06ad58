# vpsim run on patches, one ctest per behaviour (tests/CMakeLists.txt, vpsim_cli_cases): every
# tessellation example, the patch rules, the tessellation profile on both executors alike.
# Run by ctest: cmake -DVPSIM=... -DSRC=... -DCASE=... -DWORK=... [-DSANITIZE=...] -P tests/cli/run_patches.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)  # expect(code regex args...)

function(case_examples)
  # Patches: every tessellation example runs on the timing model and prints the tessellator's
  # figures (its vertices equal scene-exec's: the loop over every example scene above).
  file(GLOB patch_scenes ${SRC}/examples/scenes/patches/*.json)
  list(LENGTH patch_scenes n_patch_scenes)
  if(n_patch_scenes LESS 5)
    message(SEND_ERROR "found ${n_patch_scenes} patch examples, expected at least 5")
  endif()
  foreach(f ${patch_scenes})
    expect(0 "tessellator .*generated vertices.*control points read" run ${f} --no-progress)
  endforeach()
  expect(0 "DrawRectPatch.*tessellated: DrawRectPatch BEZIER CUBIC 4x4, 81 generated vertices" scene-exec ${SRC}/examples/scenes/patches/bezier.json)
endfunction()

function(case_rules)
  # Patch rules broken in a scene: exit 1 naming the command and the rule.
  file(READ ${SRC}/examples/scenes/patches/bezier.json bez)
  string(REPLACE "\"width\": 4" "\"width\": 3" bad_size "${bez}")
  file(WRITE ${WORK}/bad_patch_size.json "${bad_size}")
  expect(1 "/commands/4: DrawRectPatch: T2" scene-exec ${WORK}/bad_patch_size.json)
  expect(1 "/commands/4: DrawRectPatch: T2" run ${WORK}/bad_patch_size.json --no-progress)
  string(REPLACE "\"op\": \"DeletePatch\",\n   \"handle\": 1" "\"op\": \"DeletePatch\",\n   \"handle\": 7" bad_delete "${bez}")
  file(WRITE ${WORK}/bad_patch_delete.json "${bad_delete}")
  expect(1 "/commands/7/handle: DeletePatch: T8" run ${WORK}/bad_patch_delete.json --no-progress)
  string(REPLACE "\"basis\": \"bezier\"" "\"basis\": \"hermite\"" bad_basis "${bez}")
  file(WRITE ${WORK}/bad_patch_basis.json "${bad_basis}")
  expect(2 "/commands/4/info/basis: expected a basis" run ${WORK}/bad_patch_basis.json --no-progress)
endfunction()

function(case_profile)
  # The tessellation profile: a named choice changes the output, on both executors alike.
  execute_process(COMMAND ${VPSIM} scene-exec ${SRC}/examples/scenes/patches/bezier.json --json --reference
                  --tess-profile winding=ccw OUTPUT_VARIABLE ccw_ref RESULT_VARIABLE rc1)
  execute_process(COMMAND ${VPSIM} run ${SRC}/examples/scenes/patches/bezier.json --tess-profile winding=ccw
                  --out ${WORK}/patch_ccw --vertices --quiet RESULT_VARIABLE rc2)
  file(READ ${WORK}/patch_ccw/vertices.json ccw_run)
  string(REPLACE "\"engine\": \"timing\"" "\"engine\": \"reference\"" ccw_run "${ccw_run}")
  execute_process(COMMAND ${VPSIM} scene-exec ${SRC}/examples/scenes/patches/bezier.json --json --reference
                  OUTPUT_VARIABLE cw_ref)
  if(NOT (rc1 EQUAL 0 AND rc2 EQUAL 0) OR NOT ccw_run STREQUAL ccw_ref OR ccw_ref STREQUAL cw_ref)
    message(SEND_ERROR "--tess-profile winding=ccw: run and scene-exec disagree, or the option changed nothing")
  endif()
  expect(2 "unknown tessellation option \"windng\".*winding=cw\\|ccw" run --tess-profile windng=ccw)
  expect(2 "max-segments: expected an integer 1..4096" scene-exec --tess-profile max-segments=0)
endfunction()

if(NOT COMMAND case_${CASE})
  message(FATAL_ERROR "tests/cli/run_patches.cmake: no case '${CASE}' (-DCASE=)")
endif()
cmake_language(CALL case_${CASE})
