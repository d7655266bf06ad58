# The vertex fetch on the shared cross-check engine (issue 34, items 1 and 6; docs/xcheck.md, "One
# engine, two units"): JUnit, triage groups keyed on the first diverging vertex, the shrunk case
# written as a file and replayed exactly, refusals. One behaviour per ctest, chosen by -DCASE=...;
# the planted tests/rtl_variants/vertex_fetch_bug.sv is Verilated into ${CACHE_DIR} once (the
# `vf_caught` case, a fixture of the cases that use its output in ${SHARED}).
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)
set(V ${VARIANTS})
set(CACHE --rtl-cache ${CACHE_DIR})
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

if(CASE STREQUAL "vf_junit_builtin")
  # The built-in RTL: a JUnit report with each directed case, each 1000 random cases and the
  # functional coverage, none failing.
  expect(0 "coverage: every bin hit" xcheck --unit vertex_fetch --random 1500 --seed 5 --junit ${WORK}/j.xml)
  file(READ ${WORK}/j.xml x)
  foreach(want "classname=\"xcheck.vertex_fetch.directed\" name=\"directed flush\""
               "classname=\"xcheck.vertex_fetch.random\" name=\"random cases 0-999 \\(seed 5\\)\""
               "classname=\"xcheck.vertex_fetch.random\" name=\"random cases 1000-1499 \\(seed 5\\)\""
               "classname=\"xcheck.coverage\" name=\"functional coverage\"" "failures=\"0\"")
    if(NOT x MATCHES "${want}")
      message(SEND_ERROR "the JUnit report lacks ${want}:\n${x}")
    endif()
  endforeach()
  if(x MATCHES "<failure")
    message(SEND_ERROR "a passing run's JUnit report has a failure:\n${x}")
  endif()
elseif(CASE STREQUAL "vf_caught")
  # The planted bug (D3DCOLOR's green and blue from the wrong bytes): every mismatch in one triage
  # group, the JUnit case failing with the first one, the shrunk case written as a file.
  file(REMOVE_RECURSE ${SHARED})
  run(r xcheck --unit vertex_fetch --rtl ${V}/vertex_fetch_bug.sv ${CACHE} --no-directed --random 400 --seed 3
      --latency-max 20 --json --out ${SHARED} --junit ${SHARED}/j.xml)
  if(NOT r_rc EQUAL 1)
    message(FATAL_ERROR "the planted bug: exit ${r_rc}, expected 1\n${r}")
  endif()
  string(JSON n GET "${r_out}" mismatches)
  string(JSON groups LENGTH "${r_out}" mismatch_groups)
  string(JSON count GET "${r_out}" mismatch_groups 0 count)
  string(JSON sig GET "${r_out}" mismatch_groups 0 signature)
  if(NOT groups EQUAL 1 OR NOT count EQUAL n OR NOT sig STREQUAL "register value (D3DCOLOR)")
    message(SEND_ERROR "${n} mismatches in ${groups} groups, the first '${sig}' of ${count}: one bug is one group")
  endif()
  string(JSON file GET "${r_out}" failures 0 file)
  if(NOT EXISTS ${WORK}/${file} AND NOT EXISTS ${file})
    message(SEND_ERROR "the shrunk case file '${file}' was not written")
  endif()
  file(READ ${SHARED}/j.xml x)
  if(NOT x MATCHES "<failure message=\"${n} of 400 cases mismatch: random case [0-9]+ of --seed 3")
    message(SEND_ERROR "the JUnit report lacks the failure of ${n} of 400 cases:\n${x}")
  endif()
elseif(CASE STREQUAL "vf_case_file_replays")
  # The shrunk case file's own replay command gives exactly the difference recorded in it.
  file(GLOB files ${SHARED}/mismatches/vf-seed3-case*.json)
  list(GET files 0 f)
  case_file_replays(${f})
  # ... and the built-in RTL passes the same case.
  expect(0 "cases: 1  vertices: [0-9]+  elements: [0-9]+  RTL cycles: [0-9]+  mismatches: 0" xcheck --unit vertex_fetch --case ${f})
elseif(CASE STREQUAL "vf_case_refusals")
  # --case FILE holds the one case to check: options that would change it are refused; a bad
  # file is refused naming it and the rule; --case is a vertex fetch option.
  file(WRITE ${WORK}/bad.json "{\"format\": \"vpsim vertex fetch case 1\", \"seed\": -1}")
  expect(2 "--seed does not apply with --case" xcheck --unit vertex_fetch --case ${WORK}/bad.json --seed 4)
  expect(2 "--latency-max does not apply with --case" xcheck --unit vertex_fetch --case ${WORK}/bad.json --latency-max 4)
  expect(2 "bad.json: \"seed\" must be an unsigned integer" xcheck --unit vertex_fetch --case ${WORK}/bad.json)
  expect(2 "--case does not apply to the declaration decoder" xcheck --case ${WORK}/bad.json)
elseif(CASE STREQUAL "array_pin_groups")
  # Item 6: the decoder's arrays (not only streams) are grouped by the first diverging pins too. The
  # back-pressure bug flips the value of an event held 8 cycles: 21 signatures (one per event kind
  # and rule), fewer pin groups, and every mismatch in one of them.
  run(r xcheck --rtl ${V}/decl_decoder_bpbug.sv ${CACHE} --no-corpus --random 2000 --seed 1 --out-ready 0.2 --json)
  if(NOT r_rc EQUAL 1)
    message(FATAL_ERROR "the back-pressure bug: exit ${r_rc}, expected 1\n${r}")
  endif()
  string(JSON n GET "${r_out}" mismatches)
  string(JSON sigs LENGTH "${r_out}" mismatch_groups)
  string(JSON pins LENGTH "${r_out}" pin_groups)
  set(sum 0)
  math(EXPR last "${pins} - 1")
  foreach(i RANGE ${last})
    string(JSON c GET "${r_out}" pin_groups ${i} count)
    math(EXPR sum "${sum} + ${c}")
  endforeach()
  if(NOT pins LESS sigs OR NOT sum EQUAL n)
    message(SEND_ERROR "${n} mismatches: ${sigs} signatures, ${pins} pin groups holding ${sum}")
  else()
    message(STATUS "ok: ${n} mismatches, ${sigs} signatures, ${pins} pin groups")
  endif()
elseif(CASE STREQUAL "vf_wave_on_fail")
  # --wave-on-fail with the vertex fetch: the first failure's shrunk case replayed on the design
  # Verilated with tracing, one VCD file of every signal of the design, named in the report.
  run(r xcheck --unit vertex_fetch --rtl ${V}/vertex_fetch_bug.sv ${CACHE} --no-directed --random 400 --seed 3
      --latency-max 20 --json --out ${WORK}/out --wave-on-fail ${WORK}/w)
  if(NOT r_rc EQUAL 1)
    message(FATAL_ERROR "the planted bug: exit ${r_rc}, expected 1\n${r}")
  endif()
  string(JSON wave GET "${r_out}" failures 0 wave)
  file(GLOB waves ${WORK}/w/*)
  if(NOT waves STREQUAL "${wave}" OR NOT wave MATCHES "/vf-fail-seed3-case[0-9]+\\.vcd$")
    message(FATAL_ERROR "expected one VCD file, the report's '${wave}'; found: ${waves}")
  endif()
  file(READ ${wave} vcd LIMIT 4000)
  if(NOT vcd MATCHES "\\$scope module dut \\$end.*\\$var wire +1 [^ ]+ out_valid \\$end.*\\$scope module vertex_fetch")
    message(SEND_ERROR "the VCD lacks the design's pins and its module scope:\n${vcd}")
  endif()
elseif(CASE STREQUAL "vf_wave_pass_none")
  # A passing run with --wave-on-fail writes no waveform (and builds nothing).
  expect(0 "mismatches: 0" xcheck --unit vertex_fetch --random 200 --seed 5 --no-directed --wave-on-fail ${WORK}/w)
  file(GLOB waves ${WORK}/w/*)
  if(waves)
    message(SEND_ERROR "a passing run wrote ${waves}")
  endif()
elseif(CASE STREQUAL "vf_bins_counted")
  # Fetch bins (element type, stream, vertex index range, idx_flush), a token bin on the draws'
  # declarations, a cross of fetch bins (cases) and a sequence of fetch events with same=index,
  # printed under the coverage table and in the JSON.
  file(WRITE ${WORK}/b.txt "bin color fetch type=4\nbin s2 fetch stream=2\nbin hi fetch index=1000000..0xFFFFFFFF\n"
             "bin flushed fetch flush=1\nbin short2 token 0xE00F0000 0x40060000\ncross color_s2 color s2\n"
             "seq color_color color color same=index\n")
  expect(0 "user bin color +[1-9][0-9]* +\\(fetches\\)\n  user bin s2 +[1-9][0-9]* +\\(fetches\\)\n  user bin hi +[1-9][0-9]* +\\(fetches\\)\n  user bin flushed +[1-9][0-9]* +\\(fetches\\)\n  user bin short2 +[1-9][0-9]* +\\(tokens\\)\n  user cross color_s2 +[1-9][0-9]* +\\(cases\\)\n  user seq color_color +[1-9][0-9]* +\\(fetch sequences\\).*coverage: every bin hit"
         xcheck --unit vertex_fetch --random 1500 --seed 5 --bins ${WORK}/b.txt)
  run(r xcheck --unit vertex_fetch --random 1500 --seed 5 --bins ${WORK}/b.txt --json)
  string(JSON c GET "${r_out}" user_bins color)
  string(JSON x GET "${r_out}" user_crosses color_s2)
  if(NOT c GREATER 0 OR NOT x GREATER 0)
    message(SEND_ERROR "JSON user_bins.color ${c}, user_crosses.color_s2 ${x}")
  endif()
elseif(CASE STREQUAL "vf_bins_hole_waived")
  # A fetch bin these cases do not hit is a hole that fails the run; --waive-bin waives it with its reason.
  file(WRITE ${WORK}/b.txt "bin rare fetch type=7 stream=15 index=0..2 flush=1\n")
  expect(1 "user bin rare +0 +\\(fetches\\).*coverage hole: user bin rare.*1 holes fail the run"
         xcheck --unit vertex_fetch --random 1500 --seed 5 --bins ${WORK}/b.txt)
  expect(0 "coverage waived: user bin rare \\(not drawn in 1500 cases\\).*coverage: complete \\(0 excluded, 1 waived\\)"
         xcheck --unit vertex_fetch --random 1500 --seed 5 --bins ${WORK}/b.txt
         --waive-bin "user bin rare because not drawn in 1500 cases")
elseif(CASE STREQUAL "vf_bins_excluded")
  # A fetch bin the layout bus makes unreachable (offsets at 2^20 or above), and a cross that needs
  # it, are excluded with the reason, not holes: the run passes without a waiver.
  file(WRITE ${WORK}/b.txt "bin far fetch offset=0x100000..0xFFFFFFFF\nbin s fetch stream=3\ncross far_s far s\n")
  expect(0 "coverage excluded: user bin far \\(unreachable: the layout bus carries element offsets below 2\\^20 \\(lay_elems\\[31:12\\]\\)\\)\ncoverage excluded: user cross far_s \\(unreachable: its bin far: .*coverage: complete \\(2 excluded, 0 waived\\)"
         xcheck --unit vertex_fetch --random 1500 --seed 5 --bins ${WORK}/b.txt)
elseif(CASE STREQUAL "decoder_max_length_excluded")
  # -G MAX_LENGTH=4: no CONST event fits (rule 14 comes before a payload vector's 4th word); the
  # golden model's enumeration excludes the CONST event bins and a user bin of CONST events, and
  # the run passes without a waiver.
  file(WRITE ${WORK}/b.txt "bin c event CONST\nbin e event END\n")
  expect(0 "coverage excluded: event CONST \\(model\\) \\(unreachable: MAX_LENGTH=4: a CONST event needs .*coverage excluded: user bin c .*coverage: complete \\(3 excluded, 0 waived\\)"
         xcheck --rtl ${SRC}/rtl/decl_decoder.sv ${CACHE} -G MAX_LENGTH=4 --random 20000 --seed 1 --bins ${WORK}/b.txt)
elseif(CASE STREQUAL "vf_bins_unit_refused")
  # Bins that cannot count for the unit are refused naming the file, the line and the rule (exit 2):
  # a fetch bin with the decoder, a strict bin with the vertex fetch, a cross mixing fetch and token bins.
  file(WRITE ${WORK}/f.txt "# fetch\nbin c fetch type=4\n")
  file(WRITE ${WORK}/s.txt "bin r token 0xE0000000 0x40000000 strict\n")
  file(WRITE ${WORK}/m.txt "bin c fetch type=4\nbin r token 0xE0000000 0x40000000\ncross x c r\n")
  expect(2 "f.txt:2: bin c: a fetch bin counts the vertex fetch's elements; it applies to --unit vertex_fetch"
         xcheck --random 10 --bins ${WORK}/f.txt)
  expect(2 "s.txt:1: bin r: `strict` never matches with --unit vertex_fetch" xcheck --unit vertex_fetch --random 10 --bins ${WORK}/s.txt)
  expect(2 "m.txt:3: cross x: bins c and r are one a fetch bin and one not" xcheck --unit vertex_fetch --random 10 --bins ${WORK}/m.txt)
elseif(CASE STREQUAL "vf_code_gate_waived")
  # --coverage with rtl/vertex_fetch.code-waivers (the toggles no input within the contract reaches)
  # and --code-gate 100: every point hit or waived, the waived ones listed with their reasons.
  expect(0 "code coverage waived: 7 points: toggle 7 .*code coverage gate: 100.00 % of [0-9]+ points hit or waived \\(7 waived, 0 holes\\), gate 100 %: pass"
         xcheck --unit vertex_fetch ${CACHE} --random 1500 --seed 5 --coverage ${WORK}/cov
         --code-waive ${SRC}/rtl/vertex_fetch.code-waivers --code-gate 100)
  file(READ ${WORK}/cov/waived.txt w)
  if(NOT w MATCHES "vertex_fetch.sv:54: toggle mem_req_addr\\[0\\] \\(dut.vertex_fetch\\): requests are whole 16-byte memory words")
    message(SEND_ERROR "waived.txt lacks mem_req_addr[0] with its reason:\n${w}")
  endif()
  file(READ ${WORK}/cov/holes.txt h)
  if(NOT h STREQUAL "")
    message(SEND_ERROR "holes.txt lists waived points:\n${h}")
  endif()
elseif(CASE STREQUAL "vf_code_gate_fails")
  # The same run without the waivers is under a 100 % code gate: exit 1, saying so.
  expect(1 "code coverage gate: [0-9.]+ % of [0-9]+ points hit or waived \\(0 waived, 7 holes\\), gate 100 %: under the gate, the run fails"
         xcheck --unit vertex_fetch ${CACHE} --random 1500 --seed 5 --coverage ${WORK}/cov --code-gate 100)
elseif(CASE STREQUAL "code_gate_refusals")
  # --code-gate and --code-waive need --coverage; a malformed code waiver line is refused naming the
  # file and the line before anything runs (exit 2), for either unit.
  file(WRITE ${WORK}/w.txt "# waivers\nwaive vertex_fetch.sv:44: toggle lay_count[5]\n")
  expect(2 "--code-gate does not apply without --coverage DIR" xcheck --unit vertex_fetch --random 10 --code-gate 90)
  expect(2 "--code-waive does not apply without --coverage DIR" xcheck --random 10 --code-waive ${WORK}/w.txt)
  expect(2 "--code-waive: .*w.txt:2: expected `waive BIN because REASON`"
         xcheck --unit vertex_fetch --random 10 --coverage ${WORK}/cov --code-waive ${WORK}/w.txt)
  if(EXISTS ${WORK}/cov/coverage.dat)
    message(SEND_ERROR "a refused run wrote coverage")
  endif()
elseif(CASE STREQUAL "vf_bins_merged")
  # vpsim coverage merge adds the fetch's user bins run by run, as the decoder's.
  file(WRITE ${WORK}/b.txt "bin color fetch type=4\n")
  set(sum 0)
  foreach(s 1 2)
    run(r xcheck --unit vertex_fetch --random 300 --seed ${s} --bins ${WORK}/b.txt --json)
    file(WRITE ${WORK}/x${s}.json "${r_out}")
    string(JSON c GET "${r_out}" user_bins color)
    math(EXPR sum "${sum} + ${c}")
  endforeach()
  expect(0 "vertex_fetch: 2 runs" coverage merge x1.json x2.json -o m.json)
  file(READ ${WORK}/m.json m)
  string(JSON merged GET "${m}" units vertex_fetch bins "user bin color")
  if(NOT merged EQUAL sum OR sum EQUAL 0)
    message(SEND_ERROR "merged user bin color: ${merged}, the runs' sum ${sum}")
  endif()
elseif(CASE STREQUAL "vf_bins_only_not_gated")
  # --only with --bins: the user bins are counted and printed for the one case, not gated (exit 0
  # with bins at 0); --coverage-gate gates them (exit 1).
  file(WRITE ${WORK}/b.txt "bin flushed fetch flush=1\nbin far fetch stream=15 type=7 index=0..2\n")
  expect(0 "user bins \\(not gated: --coverage-gate gates them\\):\n  user bin flushed +[1-9][0-9]* +\\(fetches\\)\n  user bin far +0 +\\(fetches\\)"
         xcheck --unit vertex_fetch --only 3 --seed 5 --bins ${WORK}/b.txt)
  expect(1 "coverage hole: user bin far" xcheck --unit vertex_fetch --only 3 --seed 5 --bins ${WORK}/b.txt --coverage-gate)
else()
  message(FATAL_ERROR "unknown CASE ${CASE}")
endif()
