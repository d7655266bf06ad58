# Options that do not apply, or that contradict each other, are errors (exit 2), one behaviour per CASE:
#   json-quiet  vpsim run --json --quiet: --quiet drops the summary --json asks for
#   ff-set      vpsim ff-program --set: a fixed_function.* value reaches the program's caps; another
#               unit's parameter cannot, and is refused
# Invoked by ctest: cmake -DVPSIM=... -DWORK=... -DCASE=... -DSC=examples/scenes -P options_apply.cmake.
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)

if(CASE STREQUAL "json-quiet")
  expect(2 "--json excludes --quiet" run --json --quiet)
  expect(2 "--json excludes --quiet" run --quiet --json)
elseif(CASE STREQUAL "ff-set")
  # 17 point lights need 123 words: with program memory of 100 words the row is refused, naming the cap.
  expect(0 "17 point lights +126 refused: .*program memory holds 100 \\(fixed_function.program_words\\)"
         ff-program --counts --preset nv20 --set fixed_function.program_words=100)
  expect(2 "--set vertex_alu.engines=2: only fixed_function.\\* parameters apply"
         ff-program --counts --set vertex_alu.engines=2)
  expect(2 "--set vertex_alu.engines=2: only fixed_function.\\* parameters apply"
         ff-program ${SC}/ff_mixed.json --set vertex_alu.engines=2)
  expect(2 "fixed_function.bogus" ff-program --counts --set fixed_function.bogus=1)
else()
  message(FATAL_ERROR "options_apply.cmake: CASE=${CASE}: unknown")
endif()
