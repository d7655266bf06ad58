# The verification engineer's workflow (issue 25; docs/xcheck.md, "Replays", "Coverage you
# control", "Triage", "Shrinking"): replays that reproduce, output folders, coverage exclusions
# and waivers, triage of many mismatches, a shrinker that keeps the bug, --dump-arrays. One
# behaviour per ctest, chosen by -DCASE=... (the list is in tests/CMakeLists.txt).
# The RTL variants are Verilated into ${CACHE_DIR} (shared with the other workflow tests).
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(V ${VARIANTS})  # tests/rtl_variants/ made in the build tree (tests/rtl_variants/variants.cmake)
set(CACHE --rtl-cache ${CACHE_DIR})

# A printed command line ("vpsim xcheck --rtl ... --out-ready 0.2 ...") as a list of arguments
# after "vpsim" (the words have no quotes here: the paths have no spaces).
function(words_of cmdline var)
  string(REGEX REPLACE "^vpsim " "" rest "${cmdline}")
  separate_arguments(w UNIX_COMMAND "${rest}")
  set(${var} ${w} PARENT_SCOPE)
endfunction()

if(CASE STREQUAL "replays")
  # --- Replays that reproduce: a bug only back-pressure shows (tests/rtl_variants/
  # decl_decoder_bpbug.sv), found with --out-ready 0.2; its printed replay carries
  # --out-ready (and --in-valid, --rtl, --no-corpus) and fails again; without --out-ready it passes,
  # which is what the replay printed before this work did.
  run(found xcheck --rtl ${V}/decl_decoder_bpbug.sv ${CACHE} --no-corpus --random 300 --seed 1 --out-ready 0.2
      --in-valid 0.8 --show 1)
  string(REGEX MATCH "\n  replay: (vpsim xcheck [^\n]*)" m "${found}")
  set(replay "${CMAKE_MATCH_1}")
  if(NOT found_rc EQUAL 1 OR NOT replay MATCHES "--rtl [^ ]*decl_decoder_bpbug.sv --no-corpus --seed 1 --only [0-9]+ --out-ready 0.2 --in-valid 0.8$")
    message(SEND_ERROR "the back-pressure bug: exit ${found_rc}, replay '${replay}'\n${found}")
  else()
    words_of("${replay}" args)
    list(APPEND args ${CACHE})
    expect(1 "MISMATCH random array" ${args})
    list(REMOVE_ITEM args --out-ready 0.2)  # the replay as it was printed before: 0 mismatches
    list(REMOVE_ITEM args --in-valid 0.8)
    expect(0 "mismatches: 0" ${args})
  endif()
  # The shrunk file went to the default folder under --out (created), and its header's "replay
  # this file" (--corpus FILE, its bp-seed line) fails again.
  string(REGEX MATCH "--only ([0-9]+)" m "${replay}")
  set(shrunk ${WORK}/xcheck-out/mismatches/xcheck-mismatch-seed1-${CMAKE_MATCH_1}-0.decl)
  if(NOT EXISTS ${shrunk})
    message(SEND_ERROR "no shrunk file ${shrunk} in the default folder under --out")
  else()
    file(STRINGS ${shrunk} line REGEX "^// replay this file: ")
    string(REGEX REPLACE "^// replay this file: " "" line "${line}")
    words_of("${line}" args)
    if(NOT line MATCHES "--corpus [^ ]*xcheck-mismatch-seed1-[0-9]+-0.decl --random 0 --out-ready 0.2 --in-valid 0.8")
      message(SEND_ERROR "the shrunk file's replay: '${line}'")
    endif()
    expect(1 "MISMATCH corpus xcheck-mismatch" ${args} ${CACHE})
  endif()
  file(GLOB stray ${WORK}/xcheck-mismatch-*)
  if(stray)
    message(SEND_ERROR "shrunk files in the working directory: ${stray}")
  endif()
  # --mismatch-dir that does not exist yet is created; --corpus takes a file.
  file(WRITE ${WORK}/short4.decl "// expect: valid\nD3DVSD_STREAM(0), D3DVSD_REG(0, D3DVSDT_SHORT4), D3DVSD_REG(1, D3DVSDT_FLOAT1), D3DVSD_END()\n")
  expect(1 "shrunk to [0-9]+ tokens \\(same signature\\): [^ ]*new/dir/xcheck-mismatch"
         xcheck --rtl ${V}/decl_decoder_bug.sv ${CACHE} --corpus ${WORK}/short4.decl --random 0
         --mismatch-dir ${WORK}/new/dir)
  expect(2 "nothere.decl: no such file or directory" xcheck --corpus ${WORK}/nothere.decl --random 0)
elseif(CASE STREQUAL "coverage_exclusions")
  # --- Coverage you control. With -G CONST_COUNT=192 no CONST header breaks rule 12: its four
  # bins are excluded (listed with the reason), the run passes.
  expect(0 "coverage excluded: strict rule D12 \\(model\\) \\(unreachable: CONST_COUNT=192.*coverage: complete \\(4 excluded, 0 waived\\)"
         xcheck --rtl ${V}/decl_decoder_fsm.sv ${CACHE} -G CONST_COUNT=192 --random 5000 --seed 3)
elseif(CASE STREQUAL "gate_and_waivers")
  # A directed run of one file passes (not gated) and says how to gate it; gated, it fails and
  # says how to waive.
  expect(0 "mismatches: 0.*coverage: [0-9]+ bins not hit, not gated"
         xcheck --corpus ${SRC}/tb/corpus/valid_all_data_types.decl --random 0)
  expect(1 "coverage hole: token SKIP.*holes fail the run; waive bins .*--waive FILE"
         xcheck --corpus ${SRC}/tb/corpus/valid_all_data_types.decl --random 0 --coverage-gate)
  # Waivers from a file: every hole of that run waived (with the reason in the summary and the
  # JUnit case); an unused waiver is reported; a malformed line names the file and line.
  file(WRITE ${WORK}/waivers.txt "# directed: one file\nwaive token * because one file\nwaive REG data type * because one file\n"
    "waive event * because one file\nwaive strict rule * because one file\nwaive lenient rule * because one file\n"
    "waive no such bin because nothing\n")
  expect(0 "coverage waived: token SKIP \\(one file\\).*coverage waiver unused: no such bin.*coverage: complete \\(0 excluded, [0-9]+ waived\\)"
         xcheck --corpus ${SRC}/tb/corpus/valid_all_data_types.decl --random 0 --coverage-gate --waive ${WORK}/waivers.txt
         --junit ${WORK}/waived.xml)
  file(READ ${WORK}/waived.xml junit)
  if(NOT junit MATCHES "<system-out>[^<]*waived: token SKIP \\(one file\\)")
    message(SEND_ERROR "--junit: the waived bins are missing\n${junit}")
  endif()
  file(WRITE ${WORK}/bad_waivers.txt "waive token SKIP because ok\nwaive token NOP\n")
  expect(2 "bad_waivers.txt:2: expected `waive BIN because REASON`" xcheck --random 10 --waive ${WORK}/bad_waivers.txt)
elseif(CASE STREQUAL "triage_and_shrinker")
  # --- Triage: every mismatch counted and grouped by signature; the first `--show` detailed.
  run(tri xcheck --rtl ${V}/decl_decoder_bug.sv ${CACHE} --no-corpus --random 4000 --seed 11 --show 2 --json
      --out ${WORK}/tri)
  file(WRITE ${WORK}/tri.json "${tri_out}")
  execute_process(COMMAND python3 -c "import json, sys
j = json.load(open(sys.argv[1]))
g = j['mismatch_groups']
assert sum(x['count'] for x in g) == j['mismatches'], 'groups do not add up'
assert {x['signature'] for x in g} == {'event ELEMENT: value', 'event SKIP: value'}, g
assert len(j['failures']) == 2, 'show 2'
for f in j['failures']:
    assert f['replay'].startswith('vpsim xcheck --rtl '), f
    assert f['divergence'].startswith('on the shrunk array: first diverging cycle'), f
print('groups', [(x['signature'], x['count']) for x in g])" ${WORK}/tri.json RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
  if(NOT rc EQUAL 0 OR NOT tri_rc EQUAL 1)
    message(SEND_ERROR "triage: exit ${tri_rc}; ${o}${e}\n${tri}")
  else()
    message(STATUS "ok: triage ${o}")
  endif()

  # --- The shrinker keeps the bug: every shrunk file of the planted bugs has the signature of its
  # original mismatch; with CONST and EXT payloads removed as one unit (no payload word is left to
  # parse as a token: the shrunk array decodes with as many token units as before the payload).
  file(GLOB tri_files ${WORK}/tri/mismatches/*.decl)
  foreach(f ${tri_files})
    file(STRINGS ${f} sig REGEX "^// signature: ")
    file(STRINGS ${f} shr REGEX "^// shrunk: ")
    if(NOT sig MATCHES "event (ELEMENT|SKIP): value" OR NOT shr MATCHES "model (ELEMENT|SKIP).* \\| rtl (ELEMENT|SKIP)")
      message(SEND_ERROR "${f}: the shrunk array lost the bug: ${sig} / ${shr}")
    endif()
  endforeach()
elseif(CASE STREQUAL "dump_arrays")
  # --- --dump-arrays: the run's arrays with the golden events, for other testbenches.
  expect(0 "wrote 1002 arrays" xcheck --dump-arrays ${WORK}/dump --corpus ${SRC}/tb/corpus/valid_all_data_types.decl --random 1000 --seed 5)
  file(STRINGS ${WORK}/dump/arrays.txt a_lines REGEX "^A ")
  list(LENGTH a_lines na)
  if(NOT na EQUAL 1002)
    message(SEND_ERROR "--dump-arrays: ${na} arrays in arrays.txt, expected 1002")
  endif()
elseif(CASE STREQUAL "run_rtl_against_model")
  # --- vpsim run --rtl decl_decoder=FILE.sv against the model: the front end checks the pins
  # against the cycle contract's model cycle by cycle. A decoder whose events are right but whose
  # timing is not (tests/rtl_variants/decl_decoder_slow.sv) fails, naming the scene command and
  # the first diverging cycle; the declaration is written next to the run and its replay fails too.
  set(SCN ${SRC}/examples/scenes)
  run(slow run ${SCN}/strip.json --rtl decl_decoder=${V}/decl_decoder_slow.sv ${CACHE} --out ${WORK}/run_slow --quiet)
  if(NOT slow_rc EQUAL 1 OR NOT slow MATCHES "/commands/0: CreateVertexShader: the declaration decoder differs from the model [^\n]* at cycle 1 of the decode: in_ready model 1 \\| rtl 0")
    message(SEND_ERROR "run --rtl decl_decoder_slow.sv: exit ${slow_rc}\n${slow}")
  else()
    string(REGEX MATCH "replay: (vpsim xcheck [^\n]*)" m "${slow}")
    words_of("${CMAKE_MATCH_1}" args)
    expect(1 "cycles: model [0-9]+ \\| rtl [0-9]+.*signature: cycles.*first diverging cycle 1 .*in_ready model 1 \\| rtl 0" ${args} ${CACHE}
           --out ${WORK}/slow_replay)
  endif()
  if(EXISTS ${WORK}/run_slow/stats.json OR NOT EXISTS ${WORK}/run_slow/decl-decoder-mismatch_commands_0.decl)
    message(SEND_ERROR "run --rtl decl_decoder_slow.sv: stats.json written, or no declaration file")
  endif()
  # A SKIP bug (decl_decoder_skipbug.sv): no other scene has a SKIP; examples/scenes/decl_tokens.json does.
  expect(1 "CreateVertexShader: the declaration decoder differs from the model .* event [0-9]+: model ELEMENT .* \\| rtl ELEMENT"
         run ${SCN}/decl_tokens.json --rtl decl_decoder=${V}/decl_decoder_skipbug.sv ${CACHE} --out ${WORK}/run_skip --quiet)
  # A lenient-mode bug (decl_decoder_lenbug.sv): every scene passes (the pipeline decodes
  # strictly); --compare-model's directed arrays find it, with a replay command.
  expect(0 "-" run ${SCN}/strip.json --rtl decl_decoder=${V}/decl_decoder_lenbug.sv ${CACHE} --quiet)
  expect(1 "compare-model: pipeline: cycles model [0-9]+ \\| rtl [0-9]+, statistics equal.*differ in event ELEMENT: stream; first: corpus rule07_[^ ]*.decl \\(lenient mode\\).*replay: vpsim xcheck --rtl [^ ]*decl_decoder_lenbug.sv"
         run ${SCN}/strip.json --rtl decl_decoder=${V}/decl_decoder_lenbug.sv ${CACHE} --compare-model --compare-random 2000
         --out ${WORK}/run_len)
  expect(0 "compare-model: pipeline: cycles model [0-9]+ \\| rtl [0-9]+, statistics equal.*mismatches 0"
         run ${SCN}/decl_tokens.json --rtl decl_decoder=${SRC}/rtl/decl_decoder.sv ${CACHE} --compare-model --compare-random 2000)
  expect(2 "--compare-model compares your decoder RTL with the model: it needs --rtl decl_decoder=FILE.sv" run --compare-model)
elseif(CASE STREQUAL "mutants_unreadable_design")
  # --- --mutants on a design yosys 0.23 cannot read (a function returning a struct): the error says
  # why and what to do (only where yosys is installed; cli: xcheck --mutants installs it).
  find_program(YOSYS yosys)
  if(YOSYS)
    file(WRITE ${WORK}/structfn.sv "module structfn (input logic clk, input logic [3:0] a, output logic [3:0] y);\n"
      "  typedef struct packed { logic [1:0] p; logic [1:0] q; } s_t;\n"
      "  function automatic s_t f(logic [3:0] v);\n    s_t r;\n    r.p = v[1:0];\n    r.q = v[3:2];\n    return r;\n  endfunction\n"
      "  s_t s;\n  always_comb s = f(a);\n  always_ff @(posedge clk) y <= {s.q, s.p};\nendmodule\n")
    expect(2 "yosys could not list mutations of [^ ]*structfn.sv.*needs a netlist yosys can read: \\(1\\) mutate a yosys-readable"
           xcheck --mutants 2 --rtl ${WORK}/structfn.sv --top structfn ${CACHE} --mutants-dir ${WORK}/mut)
  endif()
elseif(CASE STREQUAL "wave_golden_pins")
  # --- The waveform of a failure carries the expected pins: the traced build wraps the design in a
  # harness (scope dut) with the model's pins (golden: in_ready, out_valid and the event fields).
  expect(1 "waveform of the shrunk replay \\([0-9]+ cycles, the expected pins in scope golden\\): [^ ]*wave/xcheck-fail-seed2-[0-9]+.fst"
         xcheck --rtl ${V}/decl_decoder_bug.sv ${CACHE} --no-corpus --random 3000 --seed 2 --show 1 --wave-on-fail ${WORK}/wave
         --out ${WORK}/wave_out)
  file(GLOB fst ${WORK}/wave/*.fst)
  execute_process(COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/../fst_hierarchy.py ${fst} OUTPUT_VARIABLE names RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT names MATCHES "(^|\n)dut\n" OR NOT names MATCHES "(^|\n)golden \\[174:0\\]\n"
     OR NOT names MATCHES "golden_value \\[23:0\\]" OR NOT names MATCHES "(^|\n)out_value \\[23:0\\]")
    message(SEND_ERROR "the FST ${fst} lacks the dut scope or the golden pins:\n${names}")
  endif()
elseif(CASE STREQUAL "user_bins")
  # --- User-defined bins and crosses (--bins FILE): counted, a bin never hit is a hole like the
  # built-in ones (gated, waivable).
  file(WRITE ${WORK}/bins.txt "bin short4 token 0xE00F0000 0x40070000\nbin skip15 event SKIP code=15\n"
    "bin ext31 token 0xFF000000 0xBF000000\ncross short4_skip15 short4 skip15\n"
    "bin tess_normal_lenient event TESS code=1 lenient\nbin impossible event ELEMENT reg=17\n")
  expect(1 "user bin short4 +[1-9][0-9]* +\\(tokens\\).*user cross short4_skip15 +[1-9][0-9]* +\\(arrays\\).*coverage hole: user bin impossible"
         xcheck --random 3000 --seed 4 --bins ${WORK}/bins.txt)
  expect(0 "coverage waived: user bin impossible \\(registers above 16 are rule D6 errors\\).*coverage: complete"
         xcheck --random 3000 --seed 4 --bins ${WORK}/bins.txt --waive-bin "user bin impossible because registers above 16 are rule D6 errors")
  file(WRITE ${WORK}/bad_bins.txt "bin a token 0xF 0x10\n")
  expect(2 "--bins: [^ ]*bad_bins.txt:1: bin a: VALUE has bits outside MASK" xcheck --random 10 --bins ${WORK}/bad_bins.txt)
else()
  message(FATAL_ERROR "xcheck_workflow.cmake: no case ${CASE}")
endif()
