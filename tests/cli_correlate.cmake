# vpsim bench correlate: the published figures beside the model's values; exit 1 when one is off.
# Invoked by ctest: cmake -DVPSIM=... -DWORK=... -P cli_correlate.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
include(${CMAKE_CURRENT_LIST_DIR}/cli_expect.cmake)
expect(0 "nv20 +vertices per second \\(transform-only workload\\) +4.5e\\+07.*nv2a +post_transform_cache.entries +24 +24 .*every published figure within its tolerance"
       bench correlate)
expect(1 "nv20 +post_transform_cache.entries +24 +16 +-33.3% +0% OUT.*a figure is outside its tolerance"
       bench correlate --set post_transform_cache.entries=16)
expect(0 "\\| nv25 \\| vertex_alu.engines \\| 2 \\| 2 \\| \\+0.0 % \\| ±0 % \\| ok \\| published" bench correlate --markdown)
expect(0 "\"figure\": \"vertices per second \\(transform-only workload\\)\".*\"all_within_tolerance\": true" bench correlate --json)
expect(2 "-" bench correlate --set no_such.param=1)
# --plot FILE: the chart beside the table (matplotlib); a format it cannot write or a folder that
# does not exist is exit 2 with no file left.
expect(0 "every published figure within its tolerance" bench correlate --plot ${WORK}/correlate.png)
file(READ ${WORK}/correlate.png png_head LIMIT 8 HEX)
if(NOT png_head STREQUAL "89504e470d0a1a0a")
  message(FATAL_ERROR "bench correlate --plot: ${WORK}/correlate.png is not a PNG (starts ${png_head})")
endif()
expect(0 "-" bench correlate --plot ${WORK}/correlate.svg)
file(READ ${WORK}/correlate.svg svg)
if(NOT svg MATCHES "<svg" OR NOT svg MATCHES "28 published figures|[0-9]+ published figures")
  message(FATAL_ERROR "bench correlate --plot: correlate.svg is not the chart")
endif()
expect(2 "vpsim bench correlate: -o .*correlate.txt: the plot is written as .png, .svg or .pdf"
       bench correlate --plot ${WORK}/correlate.txt)
if(EXISTS ${WORK}/correlate.txt)
  message(FATAL_ERROR "bench correlate --plot with a bad format left ${WORK}/correlate.txt")
endif()
expect(2 "no-such-dir/c.png: cannot write" bench correlate --plot ${WORK}/no-such-dir/c.png)
message(STATUS "ok: bench correlate --plot")
