# vpsim xcheck, one ctest per behaviour (tests/CMakeLists.txt, vpsim_cli_cases): a short random run
# passes and reports its figures (text, JSON, SystemC); a coverage hole fails.
# Run by ctest: cmake -DVPSIM=... -DSRC=... -DCASE=... -DWORK=... [-DSANITIZE=...] -P tests/cli/xcheck.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)  # expect(code regex args...)

# A short run passes with complete coverage and reports its speed.
function(case_random)
  expect(0 "mismatches: 0.*coverage: complete.*arrays/s" xcheck --random 20000 --seed 7)
endfunction()

function(case_json)
  expect(0 "\"mismatches\": 0" xcheck --no-corpus --random 2000 --seed 3 --json)
endfunction()

# The SystemC bench instead of the Verilated RTL.
function(case_systemc)
  expect(0 "mismatches: 0" xcheck --systemc --random 300 --seed 5)
endfunction()

# Ten random arrays cannot fill the coverage bins: exit 1, the hole named.
function(case_coverage_hole)
  expect(1 "coverage hole" xcheck --no-corpus --random 10 --seed 1)
endfunction()

if(NOT COMMAND case_${CASE})
  message(FATAL_ERROR "tests/cli/xcheck.cmake: no case '${CASE}' (-DCASE=)")
endif()
cmake_language(CALL case_${CASE})
