# Runs the vpsim binary on the example files and checks outputs and exit codes.
# Invoked by ctest: cmake -DVPSIM=... -DSRC=... -DWORK=... -P cli_tests.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(EX ${SRC}/examples/decl)
set(failures 0)

# expect(<exit code> <regex on stdout+stderr or "-"> args...)
function(expect code regex)
  execute_process(COMMAND ${VPSIM} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                  WORKING_DIRECTORY ${WORK})
  set(all "${out}${err}")
  if(NOT rc EQUAL code)
    message(SEND_ERROR "vpsim ${ARGN}: exit ${rc}, expected ${code}\n${all}")
  elseif(NOT regex STREQUAL "-" AND NOT all MATCHES "${regex}")
    message(SEND_ERROR "vpsim ${ARGN}: output does not match '${regex}'\n${all}")
  else()
    message(STATUS "ok: vpsim ${ARGN}")
  endif()
endfunction()

expect(0 "Usage" --help)
expect(0 "--lenient" decl --help)
expect(0 "--systemc" xcheck --help)
expect(2 "-" nosuchcommand)
expect(2 "-" decl)
expect(0 "valid \\(strict mode\\).*offset +32 +v7 +FLOAT2" decl ${EX}/header_example.decl)
expect(0 "stream 0: 40 bytes" decl ${EX}/header_example.hex)
expect(0 "constant c9 " decl ${EX}/two_streams.h)
expect(0 "normal of the surface of v0" decl ${EX}/tessellated.decl)
expect(1 "error D4 \\(reserved-bits-set\\) at token \\[1\\] 0x40020020" decl ${EX}/bad_reserved.decl)
expect(0 "warning D4" decl --lenient ${EX}/bad_reserved.decl)
expect(1 "error D16" decl --fixed-function ${EX}/ff_normal_short4.decl)
expect(0 "-" decl --reads v0,v3 ${EX}/ff_normal_short4.decl)
expect(1 "error D17.*v5" decl --reads v0,v5 ${EX}/ff_normal_short4.decl)
expect(2 "v16" decl --reads v0,v16 ${EX}/ff_normal_short4.decl)
expect(2 "cannot open" decl ${WORK}/missing.decl)
expect(2 "-" decl --const-count 0 ${EX}/header_example.decl)

# JSON: the documented keys.
expect(0 "\"valid\": true.*\"streams\".*\"type\": \"FLOAT3\".*\"constants\"" decl --json ${EX}/two_streams.h)
expect(1 "\"valid\": false.*\"rule\": \"D4\".*\"token\": \"0x40020020\"" decl --json ${EX}/bad_reserved.decl)

# Conversions round-trip: text -> hex -> c -> text gives the same tokens.
execute_process(COMMAND ${VPSIM} decl --format hex ${EX}/two_streams.h OUTPUT_FILE ${WORK}/a.hex RESULT_VARIABLE rc1)
execute_process(COMMAND ${VPSIM} decl --format c ${WORK}/a.hex -o ${WORK}/a.h RESULT_VARIABLE rc2)
execute_process(COMMAND ${VPSIM} decl --format hex ${WORK}/a.h OUTPUT_VARIABLE h2 RESULT_VARIABLE rc3)
file(READ ${WORK}/a.hex h1)
if(NOT (rc1 EQUAL 0 AND rc2 EQUAL 0 AND rc3 EQUAL 0) OR NOT h1 STREQUAL h2)
  message(SEND_ERROR "conversion round trip differs:\n${h1}\n---\n${h2}")
endif()

# A syntax error names file:line:column.
file(WRITE ${WORK}/syntax.decl "D3DVSD_STREAM(0),\nD3DVSD_REG(0, D3DVSDT_FLOAT9)\n")
expect(2 "syntax.decl:2:15" decl ${WORK}/syntax.decl)

# xcheck: a short run passes and reports its figures.
expect(0 "mismatches: 0.*coverage: complete.*arrays/s" xcheck --random 20000 --seed 7)
expect(0 "\"mismatches\": 0" xcheck --no-corpus --random 2000 --seed 3 --json)
expect(0 "mismatches: 0" xcheck --systemc --random 300 --seed 5)
expect(1 "coverage hole" xcheck --no-corpus --random 10 --seed 1)
