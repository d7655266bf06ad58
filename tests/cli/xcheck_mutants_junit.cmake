# vpsim xcheck --mutants N --junit FILE: the mutation campaign's JUnit report, the same for both
# units (docs/xcheck.md, "JUnit report"; issue 34, item 1). One behaviour per ctest, chosen by
# -DCASE=...: `decoder` and `vertex_fetch` run a tiny campaign each (its mutants Verilated into the
# tests' shared RTL cache ${CACHE_DIR}) and leave the report and the campaign's output in ${SHARED}
# for `counts`, which parses both reports. yosys installed if missing.
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)
set(CACHE --rtl-cache ${CACHE_DIR})
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

# campaign(<name> args...): runs `vpsim xcheck --mutants ... --junit ${SHARED}/<name>.xml` with
# args, keeps its output in ${SHARED}/<name>.out, and checks the report against the table: a test
# case per mutant, named by its number, mode and source line; a killed mutant passes (what killed
# it in its system-out); a survivor fails, its message naming the replay command the campaign
# printed for it, and that command passes (the mutant survives it again); an equivalent one is
# skipped. Needs a campaign with at least one killed mutant and one survivor.
function(campaign name file)
  file(REMOVE_RECURSE ${SHARED}/${name})
  file(REMOVE ${SHARED}/${name}.xml ${SHARED}/${name}.out)
  file(MAKE_DIRECTORY ${SHARED})
  execute_process(COMMAND bash ${SRC}/scripts/deps.sh yosys RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "scripts/deps.sh yosys failed (${rc})")
  endif()
  run(r xcheck ${ARGN} ${CACHE} --mutants-dir ${SHARED}/${name} --junit ${SHARED}/${name}.xml)
  message(STATUS "${r}")
  if(NOT r_rc EQUAL 1)
    message(FATAL_ERROR "the campaign: exit ${r_rc}, expected 1 (a survivor)\n${r}")
  endif()
  file(WRITE ${SHARED}/${name}.out "${r_out}")
  file(READ ${SHARED}/${name}.xml x)
  set(n_killed 0)
  set(n_survived 0)
  foreach(i 1 2 3)
    if(NOT r_out MATCHES "\n +${i}  ([a-z0-9]+) +(${file}:[0-9]+) +(killed|SURVIVED|equiv\\.) ")
      message(SEND_ERROR "no result row for mutant ${i}:\n${r_out}")
      continue()
    endif()
    set(result ${CMAKE_MATCH_3})
    set(case "<testcase classname=\"xcheck.mutants\" name=\"mutant ${i}: ${CMAKE_MATCH_1} at ${CMAKE_MATCH_2} on [^\"]+\" time=\"[0-9]+\\.[0-9]+\">\n      ")
    if(result STREQUAL "killed")
      math(EXPR n_killed "${n_killed} + 1")
      if(NOT x MATCHES "${case}<system-out>killed: [^\n]*\nmutate -mode [^<]*</system-out>\n    </testcase>")
        message(SEND_ERROR "killed mutant ${i} is not a passing test case with what killed it:\n${x}")
      endif()
    elseif(result STREQUAL "SURVIVED")
      math(EXPR n_survived "${n_survived} + 1")
      if(NOT r_out MATCHES "\nsurvivor ${i}: [^\n]+\n  replay: (vpsim xcheck [^\n]+)\n")
        message(SEND_ERROR "survivor ${i} is printed without its replay command:\n${r_out}")
        continue()
      endif()
      set(replay "${CMAKE_MATCH_1}")
      if(NOT replay MATCHES " --rtl [^ ]*/mutant-${i}\\.v$")
        message(SEND_ERROR "survivor ${i}'s replay does not check its mutant: ${replay}")
      endif()
      string(FIND "${x}" "<failure message=\"survived: the cross-check found no mismatch; replay: ${replay}\" type=\"survived\">" at)
      if(at EQUAL -1 OR NOT x MATCHES "${case}<failure message=\"survived: ")
        message(SEND_ERROR "survivor ${i} is not a failing test case naming its replay '${replay}':\n${x}")
      endif()
      string(REGEX REPLACE "^vpsim " "" line "${replay}")
      separate_arguments(args UNIX_COMMAND "${line}")
      run(again ${args})
      if(NOT again_rc EQUAL 0)
        message(SEND_ERROR "survivor ${i}'s replay: exit ${again_rc}, expected 0 (it survives)\n${again}")
      endif()
    elseif(NOT x MATCHES "${case}<skipped message=\"equivalent: ")
      message(SEND_ERROR "equivalent mutant ${i} is not a skipped test case:\n${x}")
    endif()
  endforeach()
  if(n_killed EQUAL 0 OR n_survived EQUAL 0)
    message(SEND_ERROR "the campaign needs a killed mutant and a survivor: ${n_killed} killed, ${n_survived} survived")
  endif()
  if(NOT x MATCHES "<testsuite name=\"xcheck --unit [a-z_]+: mutants of [^\"]*${file} \\(top [a-z_]+, yosys mutate -list 3 -seed [0-9]+\\), each against [^\"]*\\(seed [0-9]+\\)\" tests=\"3\"")
    message(SEND_ERROR "the test suite is not named by the unit, the design and the seeds:\n${x}")
  endif()
endfunction()

if(CASE STREQUAL "decoder")
  # Three mutants of rtl/decl_decoder.sv (mutate seed 1) against 2 random arrays, no corpus, not
  # gated (the holes of so short a budget would kill every mutant): one killed, two survive.
  campaign(decoder decl_decoder.sv --mutants 3 --mutant-seed 1 --no-corpus --random 2 --seed 1 --no-coverage-gate)
  file(READ ${SHARED}/decoder.xml x)
  if(NOT x MATCHES "<testsuite name=\"xcheck --unit decl_decoder: ")
    message(SEND_ERROR "the decoder's suite does not name its unit:\n${x}")
  endif()
elseif(CASE STREQUAL "vertex_fetch")
  # Three mutants of rtl/vertex_fetch.sv (mutate seed 1) against 5 random cases, no directed ones,
  # a set memory latency and request handshake: one killed, one equivalent, one survivor (its
  # values, requests and pipeline timing right).
  campaign(vertex_fetch vertex_fetch.sv --unit vertex_fetch --mutants 3 --mutant-seed 1 --no-directed --random 5 --seed 1
           --latency-max 20 --req-ready 0.5)
  file(READ ${SHARED}/vertex_fetch.xml x)
  if(NOT x MATCHES "<testsuite name=\"xcheck --unit vertex_fetch: ")
    message(SEND_ERROR "the fetch's suite does not name its unit:\n${x}")
  endif()
  # The mutants are checked with the latency and handshake given (their replays carry them).
  if(NOT x MATCHES "replay: vpsim xcheck --unit vertex_fetch [^\n]* --latency-max 20 --req-ready 0\\.5 ")
    message(SEND_ERROR "the survivor's replay lacks --latency-max 20 --req-ready 0.5:\n${x}")
  endif()
elseif(CASE STREQUAL "counts")
  # Both reports are well-formed XML (Python's parser), every mutant one test case, and the counts
  # of the test suite and of the whole file are those of the test cases and of the campaign's
  # summary line: survived = failures, timed out + not built = errors, equivalent = skipped.
  foreach(name decoder vertex_fetch)
    file(READ ${SHARED}/${name}.out out)
    if(NOT out MATCHES "mutants: ([0-9]+)  equivalent \\(same netlist\\): ([0-9]+)  killed: ([0-9]+)  survived: ([0-9]+)  timed out: ([0-9]+)  not built: ([0-9]+)  ")
      message(FATAL_ERROR "${name}: no summary line in the campaign's output:\n${out}")
    endif()
    math(EXPR errors "${CMAKE_MATCH_5} + ${CMAKE_MATCH_6}")
    set(want "${CMAKE_MATCH_1} ${CMAKE_MATCH_4} ${errors} ${CMAKE_MATCH_2} ${CMAKE_MATCH_3}")
    execute_process(COMMAND python3 -c "
import sys, xml.dom.minidom as m
d = m.parse(sys.argv[1])
cases = d.getElementsByTagName('testcase')
n = {k: sum(1 for c in cases if c.getElementsByTagName(k)) for k in ('failure', 'error', 'skipped')}
passed = len(cases) - n['failure'] - n['error'] - n['skipped']
for e in d.getElementsByTagName('testsuites') + d.getElementsByTagName('testsuite'):
    got = tuple(int(e.getAttribute(a)) for a in ('tests', 'failures', 'errors', 'skipped'))
    if got != (len(cases), n['failure'], n['error'], n['skipped']):
        sys.exit(e.tagName + ' counts ' + str(got) + ' are not the test cases\\' ' + str((len(cases), n['failure'], n['error'], n['skipped'])))
print(len(cases), n['failure'], n['error'], n['skipped'], passed)
" ${SHARED}/${name}.xml RESULT_VARIABLE rc OUTPUT_VARIABLE got ERROR_VARIABLE err OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT rc EQUAL 0)
      message(SEND_ERROR "${name}.xml: ${err}")
    elseif(NOT got STREQUAL want)
      message(SEND_ERROR "${name}.xml: test cases, failures, errors, skipped, passed ${got}; the campaign's summary: ${want}")
    else()
      message(STATUS "ok: ${name}.xml: ${got}")
    endif()
  endforeach()
elseif(CASE STREQUAL "no_directory")
  # A report that could not be written at the end is refused before any mutant is made (exit 2).
  expect(2 "--junit ${WORK}/none/m.xml: the directory ${WORK}/none does not exist"
         xcheck --mutants 2 --mutants-dir ${WORK}/m --junit ${WORK}/none/m.xml)
  if(EXISTS ${WORK}/m)
    message(SEND_ERROR "a refused campaign made its mutants directory")
  endif()
else()
  message(FATAL_ERROR "unknown CASE ${CASE}")
endif()
