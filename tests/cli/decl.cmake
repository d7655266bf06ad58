# vpsim decl, one ctest per behaviour (tests/CMakeLists.txt, vpsim_cli_cases): declarations in
# text, hex and C; --fvf, --reads, --lenient, JSON; errors located.
# Run by ctest: cmake -DVPSIM=... -DSRC=... -DCASE=... -DWORK=... [-DSANITIZE=...] -P tests/cli/decl.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(EX ${SRC}/examples/decl)
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)  # expect(code regex args...)

# The example declarations in text, hex and C: their layout, constants and tessellator streams.
function(case_formats)
  expect(0 "valid \\(strict mode\\).*offset +32 +v7 +FLOAT2" decl ${EX}/header_example.decl)
  expect(0 "stream 0: 40 bytes" decl ${EX}/header_example.hex)
  expect(0 "constant c9 " decl ${EX}/two_streams.h)
  expect(0 "normal of the surface of v0" decl ${EX}/tessellated.decl)
endfunction()

# A broken rule: an error naming the rule and the token (exit 1); with --lenient a warning.
function(case_rules)
  expect(1 "error D4 \\(reserved-bits-set\\) at token \\[1\\] 0x40020020" decl ${EX}/bad_reserved.decl)
  expect(0 "warning D4" decl --lenient ${EX}/bad_reserved.decl)
  expect(1 "error D16" decl --fixed-function ${EX}/ff_normal_short4.decl)
endfunction()

# --reads: the registers a shader reads must be declared (D17); a register beyond v15 is refused.
function(case_reads)
  expect(0 "-" decl --reads v0,v3 ${EX}/ff_normal_short4.decl)
  expect(1 "error D17.*v5" decl --reads v0,v5 ${EX}/ff_normal_short4.decl)
  expect(2 "v16" decl --reads v0,v16 ${EX}/ff_normal_short4.decl)
endfunction()

# Usage: no command, no file, a missing file, a bad --const-count (exit 2).
function(case_usage)
  expect(2 "-" nosuchcommand)
  expect(2 "-" decl)
  expect(2 "cannot open" decl ${WORK}/missing.decl)
  expect(2 "-" decl --const-count 0 ${EX}/header_example.decl)
endfunction()

# decl --fvf: an FVF code's equivalent declaration and layout (D3D8's order and sizes), refusals naming the rule.
function(case_fvf)
  expect(0 "FVF 0x00000152 = D3DFVF_XYZ\\|D3DFVF_NORMAL\\|D3DFVF_DIFFUSE\\|D3DFVF_TEX1: 36 bytes per vertex.*D3DVSD_REG\\(D3DVSDE_NORMAL, D3DVSDT_FLOAT3\\).*offset +24 +v5 +D3DCOLOR.*offset +28 +v7 +FLOAT2"
         decl --fvf "D3DFVF_XYZ|D3DFVF_NORMAL|D3DFVF_DIFFUSE|D3DFVF_TEX1")
  expect(0 "\"stride\": 32,\n  \"pretransformed\": true" decl --fvf 0x1C4 --json)
  expect(0 "D3DVSD_REG\\(D3DVSDE_BLENDWEIGHT, D3DVSDT_FLOAT4\\).*D3DVSD_SKIP\\(1\\)" decl --fvf XYZB5 --format text)
  expect(1 "FVF xyzrhw-normal" decl --fvf "XYZRHW|NORMAL")
  expect(2 "FVF syntax: unknown name \"FOO\"" decl --fvf "XYZ|FOO")
  expect(2 "-" decl --fvf XYZ ${EX}/header_example.decl)
endfunction()

# JSON: the documented keys.
function(case_json)
  expect(0 "\"valid\": true.*\"streams\".*\"type\": \"FLOAT3\".*\"constants\"" decl --json ${EX}/two_streams.h)
  expect(1 "\"valid\": false.*\"rule\": \"D4\".*\"token\": \"0x40020020\"" decl --json ${EX}/bad_reserved.decl)
endfunction()

# Conversions round-trip: text -> hex -> c -> text gives the same tokens.
function(case_round_trip)
  execute_process(COMMAND ${VPSIM} decl --format hex ${EX}/two_streams.h OUTPUT_FILE ${WORK}/a.hex RESULT_VARIABLE rc1)
  execute_process(COMMAND ${VPSIM} decl --format c ${WORK}/a.hex -o ${WORK}/a.h RESULT_VARIABLE rc2)
  execute_process(COMMAND ${VPSIM} decl --format hex ${WORK}/a.h OUTPUT_VARIABLE h2 RESULT_VARIABLE rc3)
  file(READ ${WORK}/a.hex h1)
  if(NOT (rc1 EQUAL 0 AND rc2 EQUAL 0 AND rc3 EQUAL 0) OR NOT h1 STREQUAL h2)
    message(SEND_ERROR "conversion round trip differs:\n${h1}\n---\n${h2}")
  endif()
endfunction()

# A syntax error names file:line:column.
function(case_syntax)
  file(WRITE ${WORK}/syntax.decl "D3DVSD_STREAM(0),\nD3DVSD_REG(0, D3DVSDT_FLOAT9)\n")
  expect(2 "syntax.decl:2:15" decl ${WORK}/syntax.decl)
endfunction()

if(NOT COMMAND case_${CASE})
  message(FATAL_ERROR "tests/cli/decl.cmake: no case '${CASE}' (-DCASE=)")
endif()
cmake_language(CALL case_${CASE})
