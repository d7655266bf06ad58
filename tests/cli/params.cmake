# vpsim params and presets, one ctest per behaviour (tests/CMakeLists.txt, vpsim_cli_cases): the
# tables, overrides, presets, and errors that list the valid keys or say where a value is bad.
# Run by ctest: cmake -DVPSIM=... -DSRC=... -DCASE=... -DWORK=... [-DSANITIZE=...] -P tests/cli/params.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)  # expect(code regex args...)

# params: the tables and an override; a bad key lists the valid ones, a bad value is refused.
function(case_table)
  expect(0 "post_transform_cache.*entries.*24" params)
  expect(0 "entries.*16" params --set post_transform_cache.entries=16)
  expect(2 "valid keys" params --set post_transform_cache.entrys=16)
  expect(2 "expected uint" params --set post_transform_cache.entries=abc)
endfunction()

# presets: the list, and --published: the values copied from spec sheets and papers, with their
# sources (they left bench correlate, which compares with measurements only); an unknown preset.
function(case_presets)
  expect(0 "nv20 .*GeForce3.*nv2a .*Xbox.*nv25 .*GeForce4 Ti 4600.*136.0 M" presets)
  expect(0 "preset +parameter +value +source\nnv20 +pipeline.clock_mhz +200.0 +published: GeForce3 core clock.*nv25 +post_transform_cache.entries +24 +published: 24 entries"
         presets --published)
  expect(0 "^preset[^\n]*\n(nv2a [^\n]*published[^\n]*\n)+$" presets --published nv2a)
  expect(0 "\"parameter\": \"vertex_alu.engines\",\n *\"value\": 2," presets --published nv25 --json)
  expect(2 "no such preset; valid presets: nv20, nv2a, nv25" presets --published nv30)
endfunction()

# A preset printed is a --config file; --preset with --set on top.
function(case_preset_params)
  execute_process(COMMAND ${VPSIM} presets nv2a OUTPUT_FILE ${WORK}/nv2a.json RESULT_VARIABLE rc)
  expect(0 "engines +uint +engines +2 \\* " params --config ${WORK}/nv2a.json)
  expect(0 "clock_mhz +double +MHz +300.0 \\*.*engines +uint +engines +3 \\* " params --preset nv25 --set vertex_alu.engines=3)
endfunction()

# run --preset: the summary at the preset's clock, config.json recording it; an unknown preset, a
# preset file value without its source.
function(case_preset_run)
  expect(2 "--preset nv30: no such preset; valid presets: nv20, nv2a, nv25" run --preset nv30 --quiet)
  expect(0 "vertices/s at 233 MHz.*bottleneck +the vertex ALU" run --preset nv2a --no-progress)
  # --quiet leaves only warnings: nv2a's order queue is too short for the default scene's cache hits
  expect(0 "^(vpsim run: warning: output.order_queue = [^\n]*\n)?$" run --preset nv2a --quiet --out ${WORK}/preset_run)
  file(READ ${WORK}/preset_run/config.json pcfg)
  if(NOT pcfg MATCHES "\"preset\": \"nv2a\"" OR NOT pcfg MATCHES "\"clock_mhz\": 233.0")
    message(SEND_ERROR "run --preset: config.json does not record the preset and its values:\n${pcfg}")
  endif()
  file(WRITE ${WORK}/nosource.json "{\"schema\": \"vpsim-preset-1\", \"params\": {\"vertex_alu\": {\"engines\": {\"value\": 2}}}}")
  expect(2 "nosource.json: /params/vertex_alu/engines: a preset value is" run --config ${WORK}/nosource.json --quiet)
endfunction()

function(case_number_range)
  # JSON numbers a double cannot hold, values beyond float, and bytes that are not UTF-8 in a --set
  # value are parameter or scene errors that say where (not nlohmann's exceptions).
  file(WRITE ${WORK}/overflow.json "{\n  \"vertex_alu\": {\"window\": 1e999}\n}\n")
  expect(2 "overflow.json: line 2, column 28: 1e999 does not fit a 64-bit float" params --config ${WORK}/overflow.json)
  file(READ ${SRC}/examples/scenes/skinning.json skin)
  string(REPLACE "\"size\": 2.0" "\"size\": 1e300" skin_big "${skin}")
  file(WRITE ${WORK}/skin_big.json "${skin_big}")
  string(REPLACE "\"size\": 2.0" "\"size\": 1e999" skin_inf "${skin}")
  file(WRITE ${WORK}/skin_inf.json "${skin_inf}")
  expect(2 "skin_big.json: /buffers/sheet/size: 1e\\+?300 is outside the 32-bit float range" scene-exec ${WORK}/skin_big.json)
  expect(2 "skin_inf.json: line 5, column [0-9]+: 1e999 does not fit a 64-bit float" run ${WORK}/skin_inf.json --quiet)
endfunction()

function(case_run_set)
  # Parameters: errors list the valid keys; bad values are refused.
  expect(2 "valid keys" run --set vertex_alu.engine=2)
  expect(2 "vertex_alu.engines" run --set vertex_alu.engines=0)
  expect(2 "enum" run --set vertex_alu.coissue=sometimes)
endfunction()

if(NOT COMMAND case_${CASE})
  message(FATAL_ERROR "tests/cli/params.cmake: no case '${CASE}' (-DCASE=)")
endif()
cmake_language(CALL case_${CASE})
