# The RTL variants of the cross-check tests (included by tests/CMakeLists.txt; docs/xcheck.md, "RTL variants").
# Each NAME.patch is applied at build time to the rtl/ file it names, giving NAME.sv in
# VPSIM_RTL_VARIANTS; it is made again when the patch or that RTL file changes, and a patch that no
# longer applies fails the build naming both. Each hand-written design NAME.sv (a design of its own,
# not a copy of rtl/) is copied beside them, so the tests find every variant in one directory.
set(VPSIM_RTL_VARIANTS ${CMAKE_CURRENT_BINARY_DIR}/rtl_variants)
file(GLOB vpsim_variant_patches CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/rtl_variants/*.patch)
file(GLOB vpsim_variant_designs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/rtl_variants/*.sv)
set(vpsim_variant_files "")
foreach(p IN LISTS vpsim_variant_patches)
  get_filename_component(name ${p} NAME_WE)
  file(STRINGS ${p} base REGEX "^--- " LIMIT_COUNT 1)
  string(REGEX REPLACE "^--- ([^\t ]+).*" "\\1" base "${base}")
  if(NOT EXISTS ${PROJECT_SOURCE_DIR}/${base})
    message(FATAL_ERROR "${p}: its \"--- \" line names '${base}', which is no file of the project")
  endif()
  add_custom_command(OUTPUT ${VPSIM_RTL_VARIANTS}/${name}.sv
    COMMAND ${CMAKE_COMMAND} -DPATCH=${p} -DROOT=${PROJECT_SOURCE_DIR} -DOUT=${VPSIM_RTL_VARIANTS}/${name}.sv
            -P ${CMAKE_CURRENT_SOURCE_DIR}/rtl_variants/apply.cmake
    DEPENDS ${p} ${PROJECT_SOURCE_DIR}/${base} ${CMAKE_CURRENT_SOURCE_DIR}/rtl_variants/apply.cmake
    COMMENT "RTL variant ${name}.sv: ${base} + tests/rtl_variants/${name}.patch" VERBATIM)
  list(APPEND vpsim_variant_files ${VPSIM_RTL_VARIANTS}/${name}.sv)
endforeach()
foreach(d IN LISTS vpsim_variant_designs)
  get_filename_component(name ${d} NAME)
  add_custom_command(OUTPUT ${VPSIM_RTL_VARIANTS}/${name}
    COMMAND ${CMAKE_COMMAND} -E copy ${d} ${VPSIM_RTL_VARIANTS}/${name}
    DEPENDS ${d} COMMENT "RTL variant ${name} (hand-written)" VERBATIM)
  list(APPEND vpsim_variant_files ${VPSIM_RTL_VARIANTS}/${name})
endforeach()
add_custom_target(rtl_variants ALL DEPENDS ${vpsim_variant_files})

# A patch that no longer applies fails loudly: the bug variant's patch on a scratch copy of rtl/
# whose changed line moved on.
add_test(NAME "rtl variants: a patch that no longer applies fails, naming the patch and the RTL file, and writes no variant"
  COMMAND ${CMAKE_COMMAND} -DSRC=${PROJECT_SOURCE_DIR} -DWORK=${CMAKE_CURRENT_BINARY_DIR}/rtl_variants_stale_work
          -P ${CMAKE_CURRENT_SOURCE_DIR}/rtl_variants/stale_patch_test.cmake)
