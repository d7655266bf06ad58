# One RTL variant from its patch: cmake -DPATCH=<x.patch> -DROOT=<tree holding rtl/> -DOUT=<x.sv> -P apply.cmake
# The patch names the RTL file it changes on its "--- rtl/..." line (or a hand-written design of
# tests/rtl_variants/, e.g. decl_decoder_fsm.sv). It must apply exactly (no fuzz):
# a patch whose context no longer matches the RTL fails here, naming the patch and the RTL file, and
# leaves no output file (docs/xcheck.md, "RTL variants": how to refresh it).
file(STRINGS ${PATCH} base REGEX "^--- " LIMIT_COUNT 1)
string(REGEX REPLACE "^--- ([^\t ]+).*" "\\1" base "${base}")
if(NOT base MATCHES "^(rtl|tests/rtl_variants)/[^/]+\\.sv$")
  message(FATAL_ERROR "${PATCH}: its \"--- \" line names '${base}', expected rtl/NAME.sv or a hand-written design tests/rtl_variants/NAME.sv")
endif()
file(REMOVE ${OUT} ${OUT}.tmp)
execute_process(COMMAND patch --batch --forward --fuzz=0 --no-backup-if-mismatch --reject-file=-
                        -o ${OUT}.tmp ${ROOT}/${base} ${PATCH}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  file(REMOVE ${OUT}.tmp)
  message(FATAL_ERROR "RTL variant ${PATCH} no longer applies to ${ROOT}/${base} (patch exit ${rc}):\n"
                      "${out}${err}"
                      "Make the variant again from today's ${base} and rewrite the patch (docs/xcheck.md, \"RTL variants\").")
endif()
file(RENAME ${OUT}.tmp ${OUT})
