# vpsim regress and vpsim coverage merge (docs/regress.md), one ctest per behaviour
# (tests/CMakeLists.txt, vpsim_cli_cases). The small regression: the built-in decoder, two seeds x
# two back-pressure profiles, and the built-in vertex fetch, one seed: five runs, no Verilator build.
# Invoked by ctest: cmake -DVPSIM=... -DSRC=... -DCASE=... -DWORK=... -DVARIANTS=... -DCACHE_DIR=... -P tests/cli/regress.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

# vpsim(<expected exit code> <regex on the output or "-"> <output variable> args...)
function(vpsim code regex var)
  execute_process(COMMAND ${VPSIM} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err WORKING_DIRECTORY ${WORK})
  if(NOT rc EQUAL code)
    message(FATAL_ERROR "vpsim ${ARGN}: exit ${rc}, expected ${code}\n${out}${err}")
  elseif(NOT regex STREQUAL "-" AND NOT "${out}${err}" MATCHES "${regex}")
    message(FATAL_ERROR "vpsim ${ARGN}: output does not match '${regex}'\n${out}${err}")
  endif()
  message(STATUS "ok (exit ${rc}): vpsim ${ARGN}")
  set(${var} "${out}${err}" PARENT_SCOPE)
endfunction()

function(write_small file)
  file(WRITE ${file} [=[{
  "schema": "vpsim-regress-1",
  "name": "small",
  "groups": [
    {"name": "dec", "unit": "decl_decoder", "seeds": [1, 2], "random": 400,
     "profiles": [{"name": "default"}, {"name": "stalled", "out_ready": 0.3, "in_valid": 0.6}]},
    {"name": "vf", "unit": "vertex_fetch", "seeds": [7], "random": 150}
  ]
}
]=])
endfunction()

function(count_matches text regex var)
  string(REGEX MATCHALL "${regex}" m "${text}")
  list(LENGTH m n)
  set(${var} ${n} PARENT_SCOPE)
endfunction()

# The run folders that have result.json (finished runs) -> var; their result.json texts -> var_texts.
function(finished_runs dir var)
  file(GLOB results ${dir}/runs/*/result.json)
  list(LENGTH results n)
  set(${var} ${n} PARENT_SCOPE)
endfunction()

# Every run, one JUnit test case each, merged coverage of both units, a triage.
function(case_local)
  write_small(${WORK}/small.json)
  vpsim(0 "5 runs, 0 already finished, 5 to run \\(local backend\\)" log regress small.json --out r --jobs 2)
  if(NOT log MATCHES "regression small: 5 runs: 5 passed, 0 failed, 0 did not finish")
    message(FATAL_ERROR "not five passed runs:\n${log}")
  endif()
  finished_runs(${WORK}/r n)
  if(NOT n EQUAL 5)
    message(FATAL_ERROR "${n} run folders with result.json, expected 5")
  endif()
  file(READ ${WORK}/r/junit.xml junit)
  count_matches("${junit}" "<testcase classname=\"regress\\.(dec|vf)\"" runs)
  count_matches("${junit}" "<testcase classname=\"regress\\.coverage\"" cov)
  if(NOT runs EQUAL 5 OR NOT cov EQUAL 2)
    message(FATAL_ERROR "junit.xml: ${runs} run test cases (expected 5), ${cov} coverage test cases (expected 2)\n${junit}")
  endif()
  file(READ ${WORK}/r/coverage.json cj)
  string(JSON dec_runs GET "${cj}" units decl_decoder runs)
  string(JSON vf_runs GET "${cj}" units vertex_fetch runs)
  if(NOT dec_runs EQUAL 4 OR NOT vf_runs EQUAL 1)
    message(FATAL_ERROR "coverage.json: ${dec_runs} decoder runs (expected 4), ${vf_runs} vertex fetch runs (expected 1)")
  endif()
  file(READ ${WORK}/r/triage.json tj)
  string(JSON ngroups LENGTH "${tj}" mismatch_groups)
  if(NOT ngroups EQUAL 0)
    message(FATAL_ERROR "triage.json: ${ngroups} mismatch groups on the built-in RTL")
  endif()
  file(READ ${WORK}/r/summary.json sj)
  string(JSON passed GET "${sj}" passed)
  if(NOT passed EQUAL 5)
    message(FATAL_ERROR "summary.json: passed ${passed}")
  endif()
  message(STATUS "ok: 5 runs, 5 JUnit run cases + 2 coverage cases, coverage.json of both units, an empty triage")
endfunction()

# Interrupted: one run's folder gone, another's result.json gone (it did not finish); the rerun runs
# those two only and leaves the three finished runs' results as they were.
function(case_resume)
  write_small(${WORK}/small.json)
  vpsim(0 "5 to run" log regress small.json --out r --jobs 2)
  file(GLOB dirs ${WORK}/r/runs/*)
  list(SORT dirs)
  list(GET dirs 0 gone)
  list(GET dirs 1 unfinished)
  file(REMOVE_RECURSE ${gone})
  file(REMOVE ${unfinished}/result.json)
  set(kept "")
  foreach(d IN LISTS dirs)
    if(NOT d STREQUAL gone AND NOT d STREQUAL unfinished)
      file(TIMESTAMP ${d}/result.json t "%s")
      file(READ ${d}/result.json r)
      list(APPEND kept "${d}|${t}|${r}")
    endif()
  endforeach()
  execute_process(COMMAND ${CMAKE_COMMAND} -E sleep 1.1)
  vpsim(0 "5 runs, 3 already finished, 2 to run" log regress small.json --out r --jobs 2)
  count_matches("${log}" "finished (dec|vf)/" ran)
  if(NOT ran EQUAL 2)
    message(FATAL_ERROR "${ran} runs ran again, expected 2:\n${log}")
  endif()
  foreach(k IN LISTS kept)
    string(REPLACE "|" ";" parts "${k}")
    list(GET parts 0 d)
    list(GET parts 1 t0)
    file(TIMESTAMP ${d}/result.json t "%s")
    if(NOT t STREQUAL t0)
      message(FATAL_ERROR "${d}: a finished run ran again")
    endif()
  endforeach()
  finished_runs(${WORK}/r n)
  if(NOT n EQUAL 5 OR NOT log MATCHES "5 runs: 5 passed")
    message(FATAL_ERROR "after the rerun: ${n} finished runs\n${log}")
  endif()
  vpsim(0 "5 runs, 5 already finished, 0 to run" log regress small.json --out r)
  message(STATUS "ok: the rerun ran the missing and the unfinished run only; run again, nothing")
endfunction()

# --list: the product designs x -G sets x profiles x seeds per group, in that order, each run a
# label; nothing runs, no output folder.
function(case_list)
  file(WRITE ${WORK}/m.json "{\"schema\": \"vpsim-regress-1\", \"seeds\": {\"first\": 1, \"count\": 3}, \"random\": 10,
  \"groups\": [{\"name\": \"dec\", \"unit\": \"decl_decoder\",
    \"rtl\": [{\"name\": \"builtin\"}, {\"name\": \"fsm\", \"files\": [\"${SRC}/tests/rtl_variants/decl_decoder_fsm.sv\"]}],
    \"params\": [{}, {\"CONST_COUNT\": 100}],
    \"profiles\": [{\"name\": \"default\"}, {\"name\": \"stalled\", \"out_ready\": 0.3}]},
   {\"name\": \"vf\", \"unit\": \"vertex_fetch\", \"seeds\": [9],
    \"profiles\": [{\"name\": \"a\"}, {\"name\": \"b\", \"latency_min\": 5}, {\"name\": \"c\"}]}]}\n")
  vpsim(0 "dec/builtin/defaults/default/seed1\n.*dec/builtin/CONST_COUNT=100/stalled/seed3\n.*dec/fsm/CONST_COUNT=100/stalled/seed3\n.*vf/builtin/defaults/b/seed9\n.*vf/builtin/defaults/c/seed9\n$"
        log regress m.json --out out --list)
  count_matches("${log}" "[0-9a-f]+  [a-z]+/" n)
  if(NOT n EQUAL 27)
    message(FATAL_ERROR "${n} runs listed, expected 2 x 2 x 2 x 3 + 3 = 27\n${log}")
  endif()
  # profiles a and c give the same xcheck arguments: still two runs, two folders
  string(REGEX MATCH "([0-9a-f]+)  vf/builtin/defaults/a/" m "${log}")
  set(ha "${CMAKE_MATCH_1}")
  string(REGEX MATCH "([0-9a-f]+)  vf/builtin/defaults/c/" m "${log}")
  if(ha STREQUAL "${CMAKE_MATCH_1}" OR ha STREQUAL "")
    message(FATAL_ERROR "two runs with the same arguments share the folder ${ha}")
  endif()
  if(EXISTS ${WORK}/out)
    message(FATAL_ERROR "--list made the output folder")
  endif()
  message(STATUS "ok: 27 runs listed in product order, two rows with the same arguments in two folders, nothing run")
endfunction()

# coverage merge: the hit counts of two runs' reports add up, bin by bin; merging a merged file with
# a third run adds that run too.
function(case_coverage_merge)
  foreach(s 1 2 3)
    execute_process(COMMAND ${VPSIM} xcheck --json --no-corpus --random 200 --seed ${s} OUTPUT_FILE ${WORK}/x${s}.json
                    RESULT_VARIABLE rc WORKING_DIRECTORY ${WORK})
  endforeach()
  vpsim(0 "decl_decoder: 2 runs" log coverage merge x1.json x2.json -o m12.json)
  vpsim(0 "decl_decoder: 3 runs" log coverage merge m12.json x3.json -o m123.json)
  file(READ ${WORK}/m12.json m12)
  file(READ ${WORK}/m123.json m123)
  set(checked 0)
  foreach(pair "token_kinds;4;token REG" "token_kinds;2;token STREAM" "events_model;6;event END \\(model\\)")
    list(GET pair 0 key)
    list(GET pair 1 i)
    list(GET pair 2 bin)
    string(REPLACE "\\" "" bin "${bin}")
    set(sum 0)
    foreach(s 1 2)
      file(READ ${WORK}/x${s}.json xj)
      string(JSON v GET "${xj}" coverage ${key} ${i})
      math(EXPR sum "${sum} + ${v}")
    endforeach()
    file(READ ${WORK}/x3.json xj)
    string(JSON v3 GET "${xj}" coverage ${key} ${i})
    math(EXPR sum3 "${sum} + ${v3}")
    string(JSON got GET "${m12}" units decl_decoder bins "${bin}")
    string(JSON got3 GET "${m123}" units decl_decoder bins "${bin}")
    if(NOT got EQUAL sum OR NOT got3 EQUAL sum3 OR sum EQUAL 0)
      message(FATAL_ERROR "bin ${bin}: merged ${got} / ${got3}, the runs' sums ${sum} / ${sum3}")
    endif()
    math(EXPR checked "${checked} + 1")
  endforeach()
  message(STATUS "ok: ${checked} bins: the merged hit counts are the sums of the runs'")
endfunction()

# A malformed regression file: FILE:LINE:COLUMN, the JSON pointer and the rule, exit 2, nothing run.
function(case_malformed)
  set(head "{\"schema\": \"vpsim-regress-1\", \"seeds\": [1], \"random\": 10,\n \"groups\": [")
  set(cases
    "{\"name\": \"a\", \"unit\": \"decl_decoder\", \"profiles\": [{\"name\": \"p\", \"req_ready\": 0.5}]}|bad.json:3:81: /groups/0/profiles/0/req_ready: unknown member \"req_ready\" \\(valid here: name, out_ready, in_valid\\)"
    "{\"name\": \"a\", \"unit\": \"decl_decoder\", \"profiles\": [{\"name\": \"p\", \"out_ready\": 2}]}|bad.json:3:81: /groups/0/profiles/0/out_ready: \"out_ready\" is a probability 0.05 .. 1"
    "{\"name\": \"a\", \"unit\": \"gpu\"}|bad.json:3:25: /groups/0/unit: \"unit\" is decl_decoder or vertex_fetch, got \"gpu\""
    "{\"name\": \"a\", \"unit\": \"vertex_fetch\", \"stream\": 1}|bad.json:3:51: /groups/0/stream: expected an integer 2 .. 1000000, got 1"
    "{\"name\": \"a\", \"unit\": \"decl_decoder\", \"rtl\": [{\"name\": \"x\", \"files\": [\"nosuch.sv\"]}]}|bad.json:3:73: /groups/0/rtl/0/files/0: .*nosuch.sv: no such file"
    "{\"name\": \"a\", \"unit\": \"decl_decoder\", \"seeds\": [3, 3]}|bad.json:3:54: /groups/0/seeds/1: seed 3 is listed twice"
    "{\"name\": \"a\", \"unit\": \"decl_decoder\"}, {\"name\": \"a\", \"unit\": \"vertex_fetch\"}|bad.json:3:51: /groups/1/name: group \"a\" is named twice"
    "{\"name\": \"a\", \"unit\": \"decl_decoder\", \"params\": [{\"CONST_COUNT\": \"1 2\"}]}|bad.json:3:68: /groups/0/params/0/CONST_COUNT: a parameter value is an integer or a string without spaces"
    "{\"name\": \"a\", \"unit\": \"decl_decoder\",}|bad.json:3:40: not valid JSON: syntax error")
  foreach(c IN LISTS cases)
    string(FIND "${c}" "|" bar)
    string(SUBSTRING "${c}" 0 ${bar} group)
    math(EXPR bar "${bar} + 1")
    string(SUBSTRING "${c}" ${bar} -1 regex)
    file(WRITE ${WORK}/bad.json "${head}\n  ${group}\n]}\n")
    vpsim(2 "${regex}" log regress bad.json --out out)
    if(EXISTS ${WORK}/out)
      message(FATAL_ERROR "a malformed file made the output folder")
    endif()
  endforeach()
  file(WRITE ${WORK}/bad.json "{\"schema\": \"vpsim-regress-2\", \"groups\": []}\n")
  vpsim(2 "bad.json:1:12: /schema: \"schema\" must be \"vpsim-regress-1\"" log regress bad.json --out out)
  vpsim(2 "nosuch.json: cannot open" log regress nosuch.json --out out)
  write_small(${WORK}/small.json)
  vpsim(2 "--chunk does not apply to --backend local" log regress small.json --out out --chunk 2)
  message(STATUS "ok: every malformed file refused with its position and rule")
endfunction()

# coverage merge: a bad input names the file and the rule, and no output is written.
function(case_merge_errors)
  file(WRITE ${WORK}/a.json "{\"schema\": \"vpsim-coverage-1\", \"units\": {\"decl_decoder\": {\"runs\": 1, \"bins\": {\"token NOP\": -1}}}}\n")
  vpsim(2 "a.json: /units/decl_decoder/bins/token NOP: a count is a non-negative integer" log coverage merge a.json -o m.json)
  file(WRITE ${WORK}/b.json "{\"mismatches\": 0}\n")
  vpsim(2 "b.json: /coverage: missing" log coverage merge b.json -o m.json)
  file(WRITE ${WORK}/c.json "{\"schema\": \"vpsim-coverage-1\", \"units\": {\"decl_decoder\": {\"runs\": 1, \"bins\": {}, \"excluded\": {\"x\": {\"runs\": 2}}}}}\n")
  vpsim(2 "c.json: /units/decl_decoder/excluded/x: expected" log coverage merge c.json -o m.json)
  file(WRITE ${WORK}/d.json "{\"schema\": \"vpsim-coverage-1\",\n  \"units\": }\n")
  vpsim(2 "d.json:2:12: not valid JSON: syntax error" log coverage merge d.json -o m.json)
  if(EXISTS ${WORK}/m.json)
    message(FATAL_ERROR "a failed merge wrote m.json")
  endif()
  message(STATUS "ok: bad coverage inputs refused, no output")
endfunction()

# GNU parallel runs the same runs with the same verdicts and merged coverage as the local backend.
function(case_parallel)
  write_small(${WORK}/small.json)
  vpsim(0 "5 to run \\(parallel backend\\)" plog regress small.json --out p --backend parallel --jobs 2)
  vpsim(0 "5 to run \\(local backend\\)" llog regress small.json --out l --jobs 2)
  file(READ ${WORK}/p/coverage.json pc)
  file(READ ${WORK}/l/coverage.json lc)
  if(NOT pc STREQUAL lc)
    message(FATAL_ERROR "the parallel backend's coverage.json differs from the local one's")
  endif()
  file(STRINGS ${WORK}/p/parallel.joblog joblog)
  list(LENGTH joblog njob)
  if(NOT njob EQUAL 6 OR NOT plog MATCHES "5 runs: 5 passed")
    message(FATAL_ERROR "parallel.joblog has ${njob} lines (expected a header and 5 runs)\n${plog}")
  endif()
  message(STATUS "ok: --backend parallel: the same merged coverage, a joblog of 5 runs")
endfunction()

# A planted variant (tests/rtl_variants) in one row: its runs fail, the others pass, and the triage
# has its signature, in its runs only.
function(case_planted)
  file(WRITE ${WORK}/planted.json "{\"schema\": \"vpsim-regress-1\", \"seeds\": [1, 2], \"random\": 2000, \"groups\": [
  {\"name\": \"dec\", \"unit\": \"decl_decoder\", \"rtl\": [{\"name\": \"builtin\"},
     {\"name\": \"bug\", \"files\": [\"${VARIANTS}/decl_decoder_bug.sv\"]}]},
  {\"name\": \"vf\", \"unit\": \"vertex_fetch\", \"seeds\": [1], \"random\": 60}]}\n")
  vpsim(1 "5 runs: 3 passed, 2 failed" log regress planted.json --out r --jobs 2 --rtl-cache ${CACHE_DIR})
  file(READ ${WORK}/r/triage.json tj)
  string(JSON n LENGTH "${tj}" mismatch_groups)
  if(n EQUAL 0)
    message(FATAL_ERROR "no mismatch group in triage.json\n${log}")
  endif()
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    string(JSON runs GET "${tj}" mismatch_groups ${i} run_labels)
    if(NOT runs MATCHES "dec/bug/" OR runs MATCHES "dec/builtin/|vf/")
      message(FATAL_ERROR "group ${i} is not the planted variant's alone: ${runs}")
    endif()
  endforeach()
  string(JSON sig GET "${tj}" mismatch_groups 0 signature)
  string(JSON nruns GET "${tj}" mismatch_groups 0 runs)
  if(NOT nruns EQUAL 2)
    message(FATAL_ERROR "the largest group (${sig}) is in ${nruns} runs, expected both seeds of the variant")
  endif()
  message(STATUS "ok: the planted variant's ${n} signature group(s) in the triage, the first (${sig}) in both of its runs")
endfunction()

# A vertex fetch group with a bins file: the fetch bins merged over the runs, a bin no run hits is
# the merged coverage's hole.
function(case_vf_bins)
  file(WRITE ${WORK}/b.txt "bin color fetch type=4\nbin never fetch offset=0..0 type=7 stream=15 index=5..5 flush=1\n")
  file(WRITE ${WORK}/r.json "{\"schema\": \"vpsim-regress-1\", \"random\": 300, \"seeds\": [1, 2],
  \"groups\": [{\"name\": \"vf\", \"unit\": \"vertex_fetch\", \"bins\": \"b.txt\"}]}\n")
  execute_process(COMMAND ${VPSIM} regress r.json --out out RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE err
                  WORKING_DIRECTORY ${WORK})
  if(NOT "${log}" MATCHES "vertex_fetch  2 runs  [0-9]+ / [0-9]+ bins hit  1 holes\n      hole: user bin never")
    message(FATAL_ERROR "the merged coverage lacks the fetch bins' hole:\n${log}${err}")
  endif()
  file(READ ${WORK}/out/coverage.json m)
  string(JSON color GET "${m}" units vertex_fetch bins "user bin color")
  if(NOT color GREATER 0)
    message(FATAL_ERROR "merged user bin color: ${color}")
  endif()
endfunction()

# A vertex fetch group with "stream": its runs check draws back to back (xcheck --unit vertex_fetch
# --stream K; the run's report says so).
function(case_vf_stream)
  file(WRITE ${WORK}/r.json "{\"schema\": \"vpsim-regress-1\", \"random\": 400, \"seeds\": [1],
  \"groups\": [{\"name\": \"vf\", \"unit\": \"vertex_fetch\", \"stream\": 4}]}\n")
  vpsim(0 "1 runs: 1 passed" log regress r.json --out out)
  file(GLOB_RECURSE results ${WORK}/out/*/xcheck.json)
  list(LENGTH results n)
  if(NOT n EQUAL 1)
    message(FATAL_ERROR "${n} xcheck.json files, expected 1\n${log}")
  endif()
  file(READ ${results} rj)
  string(JSON k ERROR_VARIABLE e GET "${rj}" stream)
  string(JSON cases ERROR_VARIABLE e2 GET "${rj}" cases)
  if(NOT k EQUAL 4 OR NOT cases EQUAL 127)
    message(FATAL_ERROR "the run checked stream ${k}, ${cases} cases; expected streams of 4 draws, 27 directed + 100 streams\n${rj}")
  endif()
endfunction()

if(NOT COMMAND case_${CASE})
  message(FATAL_ERROR "tests/cli/regress.cmake: no case '${CASE}'")
endif()
cmake_language(CALL case_${CASE})
