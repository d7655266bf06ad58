# vpsim compare (docs/run.md, "Comparing runs and presets"): run directories and presets side by
# side, the figures equal to the runs' own, text / JSON / CSV, bad input.
# Invoked by ctest: cmake -DVPSIM=... -DSRC=... -DWORK=... -DPYTHON=... -P tests/cli/compare.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)
set(SCENE ${SRC}/examples/workloads/point_light.json)

# Two run directories, and the same scene on the presets.
expect(0 "-" run ${SCENE} --quiet --preset nv20 --out ${WORK}/nv20)
expect(0 "-" run ${SCENE} --quiet --preset nv25 --set vertex_alu.engines=1 --out ${WORK}/nv25e1)
expect(0 "metric +nv20 +nv25e1.*preset +nv20 +nv25.*cycles per shaded vertex.*bottleneck unit"
       compare ${WORK}/nv20 ${WORK}/nv25e1)
expect(0 "-" compare --scene ${SCENE} --preset nv20,nv2a,nv25 --format json -o ${WORK}/presets.json)
expect(0 "-" compare ${WORK}/nv20 --scene ${SCENE} --preset nv2a --format csv -o ${WORK}/mixed.csv)
execute_process(COMMAND ${VPSIM} compare --scene ${SCENE} --preset nv20,nv2a,nv25 OUTPUT_VARIABLE text RESULT_VARIABLE rc)
file(WRITE ${WORK}/presets.txt "${text}")
execute_process(COMMAND ${PYTHON} -c "
import csv, json, sys
w = sys.argv[1]
j = json.load(open(w + '/presets.json'))
assert j['schema'] == 'vpsim-compare-1', j['schema']
assert [c['column'] for c in j['columns']] == ['nv20', 'nv2a', 'nv25'], [c['column'] for c in j['columns']]
# Each preset column equals vpsim run --preset of the same scene; the nv20 column the nv20 run dir.
nv20 = json.load(open(w + '/nv20/stats.json'))['summary']
c0 = j['columns'][0]['metrics']
for k in ('cycles', 'shaded', 'cycles_per_vertex', 'acmr', 'alu_utilisation'):
    assert c0[k] == nv20[k], (k, c0[k], nv20[k])
assert c0['bottleneck.unit'] == nv20['bottleneck']['unit']
cyc = [c['metrics']['cycles'] for c in j['columns']]
assert len(set(cyc)) > 1, ('the presets differ', cyc)
# CSV: a row per column, the run directory first, then the preset run.
rows = list(csv.DictReader(open(w + '/mixed.csv')))
assert [r['column'] for r in rows] == ['nv20', 'nv2a'] and rows[0]['preset'] == 'nv20', rows
assert int(rows[0]['cycles']) == nv20['cycles']
assert int(rows[1]['cycles']) == j['columns'][1]['metrics']['cycles']
# Text: each later column's change against the first.
t = open(w + '/presets.txt').read()
line = next(l for l in t.splitlines() if l.startswith('cycles per shaded vertex'))
assert line.count('%)') == 2, line
print('ok: compare', cyc)
" ${WORK} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(SEND_ERROR "compare checks: ${out}${err}")
else()
  message(STATUS "${out}")
endif()

# Bad input: exit 2, a message naming the problem, no output file.
expect(2 "at least two" compare ${WORK}/nv20)
expect(2 "nosuch/stats.json: cannot read" compare ${WORK}/nv20 ${WORK}/nosuch)
expect(2 "unknown preset|nv99" compare --preset nv20,nv99 -o ${WORK}/bad1.txt)
expect(2 "--format xml" compare --preset nv20,nv2a --format xml)
expect(2 "--scene and --set apply to the runs of --preset" compare ${WORK}/nv20 ${WORK}/nv25e1 --set memory.latency=9)
expect(2 "-" compare --preset nv20,nv2a --set vertex_alu.nosuch=1 -o ${WORK}/bad2.txt)
file(WRITE ${WORK}/foreign/stats.json "{\"schema\": \"other\"}\n")
expect(2 "not a vpsim stats.json" compare ${WORK}/nv20 ${WORK}/foreign)
foreach(f bad1.txt bad2.txt)
  if(EXISTS ${WORK}/${f})
    message(SEND_ERROR "a failed compare left ${WORK}/${f}")
  endif()
endforeach()
