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
