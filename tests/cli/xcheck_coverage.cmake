# vpsim xcheck --coverage: RTL code coverage of the built-in decoder (docs/xcheck.md,
# "RTL code coverage"). The HTML report needs Debian's lcov (genhtml): installed here if missing.
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND bash ${SRC}/scripts/deps.sh lcov RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "scripts/deps.sh lcov failed (${rc})")
endif()
set(CACHE --rtl-cache ${CACHE_DIR})  # the tests' shared RTL cache (tests/CMakeLists.txt)

# The corpus and a few random arrays reach every line and branch point of rtl/decl_decoder.sv
# and all its cover properties; the toggle figure is printed; the files are there.
expect(0 "mismatches: 0.*branch +[0-9]+ / [0-9]+ +100.00 %.*line +[0-9]+ / [0-9]+ +100.00 %.*toggle +[0-9]+ / [0-9]+ +[0-9.]+ %.*user +10 / 10 +100.00 %.*report: [^ ]*/html/index.html"
       xcheck --coverage ${WORK}/cov ${CACHE} --random 6000 --seed 3)
foreach(f coverage.dat coverage.info html/index.html holes.txt)
  if(NOT EXISTS ${WORK}/cov/${f})
    message(SEND_ERROR "xcheck --coverage did not write ${WORK}/cov/${f}")
  endif()
endforeach()
# genhtml's page of the source, annotated with the counts.
file(GLOB_RECURSE pages ${WORK}/cov/html/*decl_decoder.sv.gcov.html)
if(NOT pages)
  message(SEND_ERROR "the lcov report has no page for decl_decoder.sv")
endif()
# The holes file lists exactly the points never hit; offset bit 0 can never toggle (every
# offset is a multiple of 4), so it is always there.
# A bus's contiguous bits are one line: offset_q[1:0].
file(STRINGS ${WORK}/cov/holes.txt holes)
if(NOT holes MATCHES "toggle offset_q\\[1:0\\]")
  message(SEND_ERROR "holes.txt lacks the unreachable offset_q[1:0] toggles as one range")
endif()
# The lcov tracefile has branch records (Verilator's branch points and the toggle bits), and
# genhtml's page shows them: a toggle hole is a branch not taken.
file(STRINGS ${WORK}/cov/coverage.info brda REGEX "^BRDA:")
file(STRINGS ${WORK}/cov/coverage.info brda_zero REGEX "^BRDA:[0-9]+,1,[0-9]+,0$")
list(LENGTH brda nbrda)
list(LENGTH brda_zero nzero)
if(nbrda LESS 100 OR nzero EQUAL 0)
  message(SEND_ERROR "coverage.info: ${nbrda} branch records, ${nzero} toggle holes among them")
endif()
list(GET pages 0 page1)
file(READ ${page1} page)
if(NOT page MATCHES "[Bb]ranch")
  message(SEND_ERROR "the lcov page of decl_decoder.sv shows no branch data")
endif()
# --jobs 2: the two threads' instances are merged (verilator_coverage --write): the same holes
# as one thread, and no part files left behind.
expect(0 "mismatches: 0.*line +[0-9]+ / [0-9]+ +100.00 %" xcheck --coverage ${WORK}/cov_jobs ${CACHE} --random 6000 --seed 3 --jobs 2)
file(STRINGS ${WORK}/cov_jobs/holes.txt holes_jobs)
if(NOT holes_jobs STREQUAL holes)
  message(SEND_ERROR "xcheck --coverage --jobs 2 found other holes than --jobs 1:\n${holes_jobs}\n--jobs 1:\n${holes}")
endif()
file(GLOB parts ${WORK}/cov_jobs/*.part*)
if(parts)
  message(SEND_ERROR "xcheck --coverage --jobs 2 left ${parts}")
endif()
# The coverage model is cached like any --rtl build; --json carries the figures.
expect(0 "\"rtl_coverage\".*\"branch\".*\"percent\": 100" xcheck --coverage ${WORK}/cov2 ${CACHE} --random 100 --json)
# A directory that cannot be created is an error naming it.
file(WRITE ${WORK}/afile "x")
expect(2 "--coverage ${WORK}/afile/sub: cannot create the directory" xcheck --coverage ${WORK}/afile/sub ${CACHE})
