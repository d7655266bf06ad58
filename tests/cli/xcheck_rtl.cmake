# vpsim xcheck --rtl: bring-your-own RTL (docs/xcheck.md, "Your own RTL"): one behaviour per ctest,
# chosen by -DCASE=... (the list is in tests/CMakeLists.txt). The test variants in tests/rtl_variants/
# are Verilated into ${CACHE_DIR}, the tests' shared RTL cache (built once per build tree), but for
# the cases that check a new build, which use a cache of their own under ${WORK}.
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/mm)
set(V ${VARIANTS})  # tests/rtl_variants/ made in the build tree (tests/rtl_variants/variants.cmake)
set(CACHE --rtl-cache ${CACHE_DIR})
set(OWN_CACHE --rtl-cache ${WORK}/cache)
set(SCN ${SRC}/examples/scenes/compressed.json)

# vpsim run --rtl decl_decoder=FILE.sv: the user's decoder behind the pipeline's pins. The correct
# FSM gives the SystemC model's cycles, unit statistics and vertices on a scene with SHORT4
# elements; the planted bug (a SHORT4 element advances the offset by 12) changes the vertices.
function(same_run a b what)
  execute_process(COMMAND python3 -c "import json, sys
a, b = (json.load(open(f + '/stats.json')) for f in sys.argv[1:3])
for d in (a, b):
    for k in ('host_seconds', 'cycles_per_host_second', 'rtl'): d['summary'].pop(k, None)
sys.exit(0 if (a['cycles'], a['units'], a['summary']) == (b['cycles'], b['units'], b['summary']) else 1)" ${a} ${b}
                  RESULT_VARIABLE rc)
  file(READ ${a}/vertices.json va)
  file(READ ${b}/vertices.json vb)
  if(va STREQUAL vb)
    set(same_vertices yes)
  else()
    set(same_vertices no)
  endif()
  if(NOT rc EQUAL 0 OR NOT same_vertices)
    message(SEND_ERROR "${what}: ${b} differs from ${a} (statistics compared: exit ${rc}; the same vertices: ${same_vertices})")
  else()
    message(STATUS "ok: ${what}")
  endif()
endfunction()

if(CASE STREQUAL "fsm_passes")
  # A correct decoder written differently (two-process FSM) passes the whole cross-check:
  # corpus, random, back-pressure, coverage; the second run finds its build in the cache.
  expect(0 "new build.*mismatches: 0.*coverage: complete" xcheck --rtl ${V}/decl_decoder_fsm.sv ${OWN_CACHE} --random 20000 --seed 11)
  expect(0 "cached build.*mismatches: 0.*coverage: complete" xcheck --rtl ${V}/decl_decoder_fsm.sv ${OWN_CACHE} --random 2000 --seed 12)
  # A relative cache directory is found from where vpsim runs (${WORK}), not from the build directory.
  expect(0 "cached build.*mismatches: 0" xcheck --rtl ${V}/decl_decoder_fsm.sv --rtl-cache cache --random 100 --seed 12)
elseif(CASE STREQUAL "params_reach_golden")
  # Its parameters reach the golden model too: rule 12 against 100 constant registers (CONST(96, 4)
  # is valid there, an error with the default 96).
  expect(0 "(new|cached) build.*mismatches: 0.*coverage: complete" xcheck --rtl ${V}/decl_decoder_fsm.sv ${CACHE} -G CONST_COUNT=100 --random 5000 --seed 13)
elseif(CASE STREQUAL "planted_bug_shrunk")
  # The planted bug: caught on random arrays, reported with the seed, the array number and the
  # replay command, shrunk and written for the corpus.
  expect(1 "MISMATCH random array [0-9]+ of --seed 11 .*replay: vpsim xcheck --rtl [^ ]*decl_decoder_bug.sv --no-corpus --seed 11 --only [0-9]+ --out-ready 0.7 --in-valid 0.9.*shrunk to [0-9]+ tokens"
         xcheck --rtl ${V}/decl_decoder_bug.sv ${CACHE} --no-corpus --random 20000 --seed 11 --mismatch-dir ${WORK}/mm)
  file(GLOB shrunk ${WORK}/mm/xcheck-mismatch-seed11-*.decl)
  list(LENGTH shrunk n)
  if(n EQUAL 0)
    message(SEND_ERROR "the planted bug left no shrunk array in ${WORK}/mm")
  else()
    list(GET shrunk 0 first)
    file(STRINGS ${first} lines REGEX "^D3DVSD_|^0x")
    list(LENGTH lines ntok)
    # The smallest failing array: STREAM, REG SHORT4, a second element (and END or not).
    if(ntok GREATER 6)
      message(SEND_ERROR "the shrunk array ${first} has ${ntok} tokens, expected at most 6")
    endif()
    string(REGEX MATCH "--only ([0-9]+)" m "${first}")
    get_filename_component(name ${first} NAME)
    string(REGEX MATCH "seed11-([0-9]+)-" m "${name}")
    # The replay of that one array fails again; the shrunk file fails as a corpus.
    expect(1 "MISMATCH random array ${CMAKE_MATCH_1} of --seed 11" xcheck --rtl ${V}/decl_decoder_bug.sv ${CACHE}
           --no-corpus --seed 11 --only ${CMAKE_MATCH_1} --mismatch-dir ${WORK}/mm)
    file(MAKE_DIRECTORY ${WORK}/shrunk_corpus)
    file(COPY ${first} DESTINATION ${WORK}/shrunk_corpus)
    expect(1 "MISMATCH corpus" xcheck --rtl ${V}/decl_decoder_bug.sv ${CACHE} --corpus ${WORK}/shrunk_corpus
           --random 0 --mismatch-dir ${WORK}/mm)
    # ... and the built-in RTL passes it.
    expect(0 "mismatches: 0" xcheck --corpus ${WORK}/shrunk_corpus --random 0 --only 0)
  endif()
elseif(CASE STREQUAL "jobs_same_report")
  # --jobs 2: two threads, each with its own instance of the user's design; the report (mismatches,
  # their shrunk arrays, coverage, totals) is the one --jobs 1 gives.
  foreach(j 1 2)
    execute_process(COMMAND ${VPSIM} xcheck --rtl ${V}/decl_decoder_bug.sv ${CACHE} --no-corpus --random 20000 --seed 11
                            --jobs ${j} --json --mismatch-dir ${WORK}/mm
                    WORKING_DIRECTORY ${WORK} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    string(REGEX REPLACE "\"(seconds|arrays_per_second)\": [0-9.e+-]+" "" report${j} "${out}")
    if(NOT rc EQUAL 1 OR NOT out MATCHES "\"mismatches\": [1-9]")
      message(SEND_ERROR "xcheck --jobs ${j} on the planted bug: exit ${rc}, expected 1 with mismatches\n${out}${err}")
    endif()
  endforeach()
  if(NOT report1 STREQUAL report2)
    message(SEND_ERROR "xcheck --jobs 2 reported otherwise than --jobs 1:\n--jobs 1: ${report1}\n--jobs 2: ${report2}")
  else()
    message(STATUS "ok: --jobs 1 and --jobs 2 give the same report on the planted bug")
  endif()
elseif(CASE STREQUAL "run_equals_model")
  expect(0 "-" run ${SCN} --out ${WORK}/run_model --vertices --quiet)
  expect(0 "-" run ${SCN} --rtl decl_decoder=${V}/decl_decoder_fsm.sv ${CACHE} --out ${WORK}/run_fsm --vertices --quiet)
  same_run(${WORK}/run_model ${WORK}/run_fsm "run --rtl decl_decoder=decl_decoder_fsm.sv equals the model")
  expect(0 "RTL in the loop +decl_decoder=[^ ]*decl_decoder_fsm.sv" run ${SCN} --rtl decl_decoder=${V}/decl_decoder_fsm.sv ${CACHE})
elseif(CASE STREQUAL "run_bug_is_a_finding")
  # The front end checks every declaration's events against the golden decoder: the planted bug is
  # a finding about the user's RTL (exit 1, the first differing event), and no stats.json is written.
  expect(1 "--rtl decl_decoder=[^ ]*decl_decoder_bug.sv: /commands/[0-9]+: CreateVertexShader: the declaration decoder differs from the model .* event [0-9]+: model ELEMENT.* \\| rtl ELEMENT.*the declaration: [^ ]*run_bug/decl-decoder-mismatch_commands_[0-9]+.decl"
         run ${SCN} --rtl decl_decoder=${V}/decl_decoder_bug.sv ${CACHE} --out ${WORK}/run_bug --quiet)
  if(EXISTS ${WORK}/run_bug/stats.json)
    message(SEND_ERROR "run --rtl decl_decoder=decl_decoder_bug.sv wrote stats.json")
  endif()
elseif(CASE STREQUAL "run_max_length")
  # Another MAX_LENGTH for the run: the design is Verilated again with -G MAX_LENGTH=2048.
  expect(0 "-" run --set decl_decoder.max_length=2048 --out ${WORK}/run_model_2048 --vertices --quiet)
  expect(0 "Verilating" run --set decl_decoder.max_length=2048 --rtl decl_decoder=${V}/decl_decoder_fsm.sv ${OWN_CACHE}
         --out ${WORK}/run_fsm_2048 --vertices --no-progress)
  same_run(${WORK}/run_model_2048 ${WORK}/run_fsm_2048 "run --rtl decl_decoder=FILE with MAX_LENGTH 2048 equals the model")
elseif(CASE STREQUAL "run_bad_input")
  expect(2 "do not match the decoder's port contract" run --rtl decl_decoder=${V}/decl_decoder_badports.sv ${CACHE})
  expect(2 "--rtl decl_decoder=: no file after '='" run --rtl decl_decoder=)
  expect(2 "only decl_decoder and vertex_fetch take your own RTL" run --rtl vertex_alu=${V}/decl_decoder_fsm.sv)
  expect(2 "decl_decoder is given twice" run --rtl decl_decoder --rtl decl_decoder=${V}/decl_decoder_fsm.sv)
elseif(CASE STREQUAL "bad_ports")
  # Ports that break the contract: refused before anything is compiled or simulated, with the
  # expected and the found ports.
  expect(2 "do not match the decoder's port contract.*out_ready is an output, the contract says input.*out_value is 16 bits wide, the contract says 24.*missing port out_data.*port busy is not in the contract.*expected:.*input +\\[32\\] in_token.*found:.*output +\\[16\\] out_value +[^ ]*decl_decoder_badports.sv:18"
         xcheck --rtl ${V}/decl_decoder_badports.sv ${CACHE} --random 10)
elseif(CASE STREQUAL "verilator_error")
  # Verilator's own error, with the file and line, and exit 2.
  file(WRITE ${WORK}/broken.sv "module broken (input logic clk);\n  logic x\n  assign x = clk;\nendmodule\n")
  expect(2 "Verilator rejected the design:.*%Error: [^ ]*broken.sv:3" xcheck --rtl ${WORK}/broken.sv ${CACHE})
elseif(CASE STREQUAL "bad_arguments")
  # Bad arguments: each a clear error and exit 2.
  expect(2 "-G CONST_COUNT: expected NAME=VALUE" xcheck --rtl ${V}/decl_decoder_fsm.sv ${CACHE} -G CONST_COUNT)
  expect(2 "Verilator rejected the design:.*Parameters from the command line were not found in the design: NOPE" xcheck --rtl ${V}/decl_decoder_fsm.sv ${CACHE} -G NOPE=3)
  expect(2 "-G CONST_COUNT=1 2: the value" xcheck --rtl ${V}/decl_decoder_fsm.sv ${CACHE} -G "CONST_COUNT=1 2")
  expect(2 "nothere.sv: no such file" xcheck --rtl ${WORK}/nothere.sv ${CACHE})
  expect(2 "--rtl excludes --systemc|excludes" xcheck --rtl ${V}/decl_decoder_fsm.sv --systemc)
  expect(2 "seed is a non-negative decimal integer" xcheck --seed -1 --random 1)
  expect(2 "at most 18446744073709551615" xcheck --seed 18446744073709551616 --random 1)
elseif(CASE STREQUAL "junit")
  # --junit: one test case per corpus file and per 10,000 random arrays, plus the functional
  # coverage; well-formed XML; the planted bug's failures carry the replay command.
  expect(0 "mismatches: 0" xcheck --random 25000 --seed 2 --junit ${WORK}/pass.xml)
  expect(1 "MISMATCH" xcheck --rtl ${V}/decl_decoder_bug.sv ${CACHE} --no-corpus --random 25000 --seed 2
         --junit ${WORK}/fail.xml --mismatch-dir ${WORK}/mm)
  file(GLOB corpus_files ${SRC}/tb/corpus/*.decl ${SRC}/tb/corpus/*.hex ${SRC}/tb/corpus/*.bin)
  list(LENGTH corpus_files ncorpus)
  math(EXPR want_pass "${ncorpus} + 3 + 1")
  foreach(x pass:${want_pass}:0 fail:4:3)
    string(REPLACE ":" ";" x ${x})
    list(GET x 0 name)
    list(GET x 1 cases)
    list(GET x 2 failures)
    execute_process(COMMAND python3 -c "import sys, xml.dom.minidom as m; d = m.parse(sys.argv[1]); print(len(d.getElementsByTagName('testcase')), len(d.getElementsByTagName('failure')))" ${WORK}/${name}.xml
                    OUTPUT_VARIABLE counts RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT rc EQUAL 0 OR NOT counts STREQUAL "${cases} ${failures}")
      message(SEND_ERROR "--junit ${name}.xml: test cases and failures '${counts}', expected '${cases} ${failures}' (rc ${rc})")
    endif()
  endforeach()
  file(READ ${WORK}/fail.xml fail)
  if(NOT fail MATCHES "name=\"random arrays 0-9999 \\(seed 2\\)\"" OR NOT fail MATCHES "replay: vpsim xcheck --rtl [^ ]*decl_decoder_bug.sv --no-corpus --seed 2 --only [0-9]+ --out-ready 0.7 --in-valid 0.9</failure>")
    message(SEND_ERROR "--junit: the failing random batch or its replay command is missing\n${fail}")
  endif()
elseif(CASE STREQUAL "wave_on_fail")
  # --wave-on-fail: the first failure's shrunk replay as an FST waveform, from a model Verilated
  # with --trace-fst when it is needed (an FST file starts with its header block, type 0).
  expect(1 "waveform of the shrunk replay \\([0-9]+ cycles[^)]*\\): [^ ]*/wave/xcheck-fail-seed2-[0-9]+.fst"
         xcheck --rtl ${V}/decl_decoder_bug.sv ${CACHE} --no-corpus --random 3000 --seed 2
         --wave-on-fail ${WORK}/wave --mismatch-dir ${WORK}/mm)
  file(GLOB fst ${WORK}/wave/*.fst)
  list(LENGTH fst nfst)
  if(NOT nfst EQUAL 1)
    message(SEND_ERROR "--wave-on-fail: ${nfst} FST files in ${WORK}/wave, expected 1")
  else()
    file(SIZE ${fst} fst_size)
    file(READ ${fst} fst_head LIMIT 1 HEX)
    if(fst_size LESS 200 OR NOT fst_head STREQUAL "00")
      message(SEND_ERROR "--wave-on-fail: ${fst} is not an FST file (${fst_size} bytes, first byte ${fst_head})")
    endif()
  endif()
elseif(CASE STREQUAL "wave_pass_writes_nothing")
  # A passing run builds no traced model and writes nothing.
  expect(0 "mismatches: 0" xcheck --rtl ${V}/decl_decoder_fsm.sv ${CACHE} --random 1000 --wave-on-fail ${WORK}/wave_pass)
  file(GLOB fst_pass ${WORK}/wave_pass/*)
  if(fst_pass)
    message(SEND_ERROR "--wave-on-fail wrote ${fst_pass} on a passing run")
  endif()
else()
  message(FATAL_ERROR "xcheck_rtl.cmake: no case ${CASE}")
endif()
