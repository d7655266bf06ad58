# vpsim xcheck --unit vertex_fetch --coverage: RTL code coverage of rtl/vertex_fetch.sv
# (docs/vertex-fetch-rtl.md, "--coverage DIR"). The directed cases and 300 random ones reach every
# line and branch point and all twelve cover properties; the files are written, the never-hit
# points are listed, and --jobs 2 (two instances, merged) finds the same holes.
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND bash ${SRC}/scripts/deps.sh lcov RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "scripts/deps.sh lcov failed (${rc})")
endif()
set(CACHE --rtl-cache ${CACHE_DIR})  # the tests' shared RTL cache (tests/CMakeLists.txt)

expect(0 "mismatches: 0.*coverage: every bin hit.*branch +[0-9]+ / [0-9]+ +100.00 %.*line +[0-9]+ / [0-9]+ +100.00 %.*toggle +[0-9]+ / [0-9]+ +[0-9.]+ %.*user +12 / 12 +100.00 %.*report: [^ ]*/html/index.html"
       xcheck --unit vertex_fetch --coverage ${WORK}/cov ${CACHE} --random 300 --seed 2)
foreach(f coverage.dat coverage.info html/index.html holes.txt)
  if(NOT EXISTS ${WORK}/cov/${f})
    message(SEND_ERROR "xcheck --unit vertex_fetch --coverage did not write ${WORK}/cov/${f}")
  endif()
endforeach()
file(GLOB_RECURSE pages ${WORK}/cov/html/*vertex_fetch.sv.gcov.html)
if(NOT pages)
  message(SEND_ERROR "the lcov report has no page for vertex_fetch.sv")
endif()
# Requests are for 16-byte words: the address's low bits never toggle, so they are always holes.
file(STRINGS ${WORK}/cov/holes.txt holes)
if(NOT holes MATCHES "toggle mem_req_addr\\[(0|3:0)\\]")
  message(SEND_ERROR "holes.txt lacks the unreachable mem_req_addr[0] toggle:\n${holes}")
endif()
# Each thread's instance writes its own file; they are summed, and no part is left behind. --json
# carries the figures.
expect(0 "\"mismatches\": 0.*\"rtl_coverage\".*\"user\"" xcheck --unit vertex_fetch --coverage ${WORK}/cov_jobs ${CACHE} --random 300 --seed 2 --jobs 2 --json)
file(STRINGS ${WORK}/cov_jobs/holes.txt holes_jobs)
if(NOT holes_jobs STREQUAL holes)
  message(SEND_ERROR "--jobs 2 found other holes than --jobs 1:\n${holes_jobs}\n--jobs 1:\n${holes}")
endif()
file(GLOB parts ${WORK}/cov_jobs/coverage.dat.*)
if(parts)
  message(SEND_ERROR "xcheck --unit vertex_fetch --coverage --jobs 2 left ${parts}")
endif()
# A directory that cannot be created is an error naming it.
file(WRITE ${WORK}/afile "x")
expect(2 "--coverage ${WORK}/afile/sub: cannot create the directory" xcheck --unit vertex_fetch --coverage ${WORK}/afile/sub ${CACHE})
