# vpsim xcheck --bins, the coverage language beyond exact values (issue 34, item 5; docs/xcheck.md
# "Your own bins"), one ctest per behaviour (tests/CMakeLists.txt, vpsim_cli_cases): ranges,
# sequences (the trigger "STREAM n right after STREAM n"), crosses within a window of events, in the
# text and the JSON report, gated and waivable, a bad line refused where it is.
# Run by ctest: cmake -DVPSIM=... -DSRC=... -DCASE=... -DWORK=... [-DSANITIZE=...] -P tests/cli/xcheck_bins.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)  # expect(code regex args...)

set(RUN xcheck --no-corpus --random 3000 --seed 4 --bins ${WORK}/bins.txt)

# STREAM n right after STREAM n: random arrays hit it; the sequence is counted and printed beside
# the bins, and the run's coverage is complete.
function(case_seq_stream_after_stream)
  file(WRITE ${WORK}/bins.txt "bin s event STREAM\nseq s_after_s s s same=stream\n")
  expect(0 "user bin s +[1-9][0-9]* +\\(events\\)\n  user seq s_after_s +[1-9][0-9]* +\\(event sequences\\).*coverage: complete" ${RUN})
endfunction()

# --stream: arrays back to back, sequences still counted within each array: the same counts as
# the run without --stream (the same arrays).
function(case_stream_per_array)
  file(WRITE ${WORK}/bins.txt "bin s event STREAM\nseq s_after_s s s same=stream\nbin e event ELEMENT\nseq e_e e e\n")
  run(plain ${RUN})
  run(streamed ${RUN} --stream 8)
  string(REGEX MATCHALL "user seq [a-z_]+ +[0-9]+" a "${plain}")
  string(REGEX MATCHALL "user seq [a-z_]+ +[0-9]+" b "${streamed}")
  list(LENGTH a n)
  if(NOT plain_rc EQUAL 0 OR NOT streamed_rc EQUAL 0 OR NOT n EQUAL 2 OR NOT a STREQUAL b
     OR NOT streamed MATCHES "back to back in streams of 8")
    message(SEND_ERROR "--stream changed the sequence counts: '${a}' against '${b}'\n${plain}\n${streamed}")
  endif()
endfunction()

# A range counts more than an exact value inside it (regs 0..15 against reg 0).
function(case_ranges)
  file(WRITE ${WORK}/bins.txt "bin r0 event ELEMENT reg=0\nbin r0_15 event ELEMENT reg=0..15\n")
  run(out ${RUN})
  string(REGEX MATCH "user bin r0 +([0-9]+)" m "${out}")
  set(one ${CMAKE_MATCH_1})
  string(REGEX MATCH "user bin r0_15 +([0-9]+)" m "${out}")
  if(NOT out_rc EQUAL 0 OR NOT one GREATER 0 OR NOT CMAKE_MATCH_1 GREATER one)
    message(SEND_ERROR "reg=0..15 counted ${CMAKE_MATCH_1}, not more than reg=0's ${one}\n${out}")
  endif()
endfunction()

# A cross within one event never holds two different events: a hole, named; within 64 it is hit.
function(case_cross_within)
  file(WRITE ${WORK}/bins.txt "bin s event STREAM\nbin e event ELEMENT\ncross s_e s e\ncross s_e_1 s e within 1\n"
       "cross s_e_64 s e within 64\n")
  expect(1 "user cross s_e +[1-9][0-9]* +\\(arrays\\)\n  user cross s_e_1 +0 +\\(arrays, within 1 events\\)\n  user cross s_e_64 +[1-9][0-9]* +\\(arrays, within 64 events\\).*coverage hole: user cross s_e_1" ${RUN})
endfunction()

# A sequence that cannot happen (END right after END) is a hole that fails the run, and waivable.
function(case_seq_hole_waived)
  file(WRITE ${WORK}/bins.txt "bin end event END\nseq end_end end end\n")
  expect(1 "coverage hole: user seq end_end" ${RUN})
  expect(0 "coverage waived: user seq end_end \\(an array has one END\\).*coverage: complete"
         ${RUN} --waive-bin "user seq end_end because an array has one END")
endfunction()

# --json: the sequences under user_seqs; without seq lines there is no user_seqs key (as before).
function(case_json_seqs)
  file(WRITE ${WORK}/bins.txt "bin s event STREAM\nseq s_after_s s s same=stream\n")
  expect(0 "\"user_seqs\": {\n *\"s_after_s\": [1-9][0-9]*\n" ${RUN} --json)
  file(WRITE ${WORK}/bins.txt "bin s event STREAM\n")
  run(out ${RUN} --json)
  if(NOT out_rc EQUAL 0 OR NOT out MATCHES "\"user_bins\"" OR out MATCHES "user_seqs")
    message(SEND_ERROR "user_seqs reported for a bins file without seq lines\n${out}")
  endif()
endfunction()

# A bad seq line: exit 2 naming the file, the line and the rule.
function(case_bad_seq)
  file(WRITE ${WORK}/bins.txt "bin s event STREAM\n# a comment\nseq q s s same=colour\n")
  expect(2 "--bins: [^ ]*bins.txt:3: seq q: same=colour: unknown field \\(stream, value, code, reg\\)" ${RUN})
endfunction()

if(NOT COMMAND case_${CASE})
  message(FATAL_ERROR "tests/cli/xcheck_bins.cmake: no case '${CASE}' (-DCASE=)")
endif()
cmake_language(CALL case_${CASE})
