# vpsim bench correlate: the model against published measurements of real chips (the run-time
# data's examples/correlation/measurements.json): the table, the split rule applied by position,
# every figure with its page and quote, the chip's clock, --markdown, --json, --check, --plot, and
# bad measurement files refused with the file, the JSON pointer and the rule. No check asserts
# the size of an error (the model does not reach the goal today; --check must say what it finds).
# Invoked by ctest: cmake -DVPSIM=... -DWORK=... -P tests/cli/correlate.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)

expect(0 "set +id +preset@MHz +measured +model +unit +error.*fit +3dm01-ffrate-gf3 +nv20@200 +16.6 .*holdout +opengvs-indtri-quadro4-900 +nv25@300 .*\nfit: +[0-9]+ rate figures, mean absolute error [0-9.]+ %.*\nholdout: +[0-9]+ rate figures.*\ngoal (met|not met): [0-9]+ rate figures \\(goal 12\\)"
       bench correlate)
expect(0 "\\| holdout \\| dx81sdk-optmesh-ti4600 \\| DirectX 8.1 SDK Optimized Mesh.*\\| nv25 \\(300 MHz\\) \\| 56 \\|.*\\| id \\| board \\| driver \\| system \\| date \\| quoted \\| source \\|.*\\| 3dm03-vs-ti4600 \\| VisionTek XTASY Ti 4600 128MB \\| 41.09 \\|"
       bench correlate --markdown)

# --json: every figure has its page and quote, runs at its chip's clock, and is in the set the rule
# gives its position (k = 1, 2, ...: holdout when k is a multiple of 3).
execute_process(COMMAND ${VPSIM} bench correlate --json RESULT_VARIABLE rc OUTPUT_VARIABLE doc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "bench correlate --json: exit ${rc}\n${err}")
endif()
string(JSON n LENGTH "${doc}" figures)
if(n LESS 1)
  message(FATAL_ERROR "bench correlate --json: no figures")
endif()
math(EXPR last "${n} - 1")
set(holdouts 0)
foreach(i RANGE ${last})
  string(JSON id GET "${doc}" figures ${i} id)
  foreach(key url quote test chip date preset scene)
    string(JSON v GET "${doc}" figures ${i} ${key})
    if(v STREQUAL "")
      message(FATAL_ERROR "bench correlate --json: figure ${id} has no ${key}")
    endif()
  endforeach()
  string(JSON url GET "${doc}" figures ${i} url)
  if(NOT url MATCHES "^https?://")
    message(FATAL_ERROR "bench correlate --json: figure ${id}'s url is not a page: ${url}")
  endif()
  string(JSON set GET "${doc}" figures ${i} set)
  math(EXPR k "${i} + 1")
  math(EXPR r "${k} % 3")
  if(r EQUAL 0)
    set(want holdout)
    math(EXPR holdouts "${holdouts} + 1")
  else()
    set(want fit)
  endif()
  if(NOT set STREQUAL want)
    message(FATAL_ERROR "bench correlate --json: figure ${k} (${id}) is in the ${set} set; the rule puts it in ${want}")
  endif()
  string(JSON core GET "${doc}" figures ${i} core_mhz)
  string(JSON clock GET "${doc}" figures ${i} clock_mhz)
  if(NOT core STREQUAL clock)
    message(FATAL_ERROR "bench correlate --json: figure ${id} ran at ${clock} MHz, its chip's clock is ${core} MHz")
  endif()
endforeach()
string(JSON hs GET "${doc}" summary holdout rate_figures)
string(JSON hb GET "${doc}" summary holdout upper_bounds)
math(EXPR hsum "${hs} + ${hb}")
if(NOT hsum EQUAL holdouts)
  message(FATAL_ERROR "bench correlate --json: the holdout summary counts ${hsum} figures, the rule gives ${holdouts}")
endif()
string(JSON ctx LENGTH "${doc}" context)
if(ctx LESS 1)
  message(FATAL_ERROR "bench correlate --json: no context figures (the vendor rates kept apart)")
endif()
message(STATUS "ok: bench correlate --json: ${n} figures, ${holdouts} held out by position, every one with its page and quote")

# The Ti 4800 SE (nv25 at 275 MHz) runs with the chip's clock on top of the preset.
string(JSON sets GET "${doc}" figures 9 preset_sets)
if(NOT sets MATCHES "pipeline.clock_mhz=275")
  message(FATAL_ERROR "bench correlate --json: figure 10 does not run at its chip's clock: ${sets}")
endif()

# --check: exit 1 exactly when the goal (12 rate figures, 3 kinds, every holdout within ±15 %) is not met.
string(JSON met GET "${doc}" goal met)
if(met)
  expect(0 "goal met" bench correlate --check)
else()
  expect(1 "goal not met" bench correlate --check)
endif()

# --set goes on top of every figure's preset; a bad one is exit 2 before anything runs.
expect(0 "\"sets\": \\[\n *\"vertex_alu.engines=1\"" bench correlate --json --set vertex_alu.engines=1)
expect(2 "vpsim bench correlate: .*no_such" bench correlate --set no_such.param=1)

# Bad measurement files: the file, the JSON pointer (or line and column) and the rule.
file(READ ${CMAKE_CURRENT_LIST_DIR}/../../examples/correlation/measurements.json data)
string(JSON data REMOVE "${data}" figures 0 url)
file(WRITE ${WORK}/no_url.json "${data}")
expect(2 "vpsim bench correlate: no_url.json: /figures/0/url: missing \\(every figure names the page it was read from\\)"
       bench correlate --data no_url.json)
file(READ ${CMAKE_CURRENT_LIST_DIR}/../../examples/correlation/measurements.json data)
string(JSON data SET "${data}" figures 1 quote "\"a table row without the number\"")
file(WRITE ${WORK}/no_value.json "${data}")
expect(2 "no_value.json: /figures/1/quote: the quote does not show the value 11.82"
       bench correlate --data no_value.json)
# A copy of the file beside no scenes: the first figure's scene is missing.
file(READ ${CMAKE_CURRENT_LIST_DIR}/../../examples/correlation/measurements.json data)
file(WRITE ${WORK}/no_scene.json "${data}")
expect(2 "no_scene.json: /figures/0/scene: .*hpc_1light.json: cannot open" bench correlate --data no_scene.json)
file(WRITE ${WORK}/syntax.json "{\"schema\": \"vpsim-measurements-1\",\n \"figures\": [}")
expect(2 "syntax.json: line 2, column 14: not valid JSON" bench correlate --data syntax.json)
expect(2 "nothing.json: cannot open" bench correlate --data nothing.json)

# --plot FILE: model against measurement (matplotlib) beside the table; a format it cannot write
# or a folder that does not exist is exit 2 with no file left.
expect(0 "fit: " bench correlate --plot ${WORK}/correlate.png)
file(READ ${WORK}/correlate.png png_head LIMIT 8 HEX)
if(NOT png_head STREQUAL "89504e470d0a1a0a")
  message(FATAL_ERROR "bench correlate --plot: ${WORK}/correlate.png is not a PNG (starts ${png_head})")
endif()
expect(0 "-" bench correlate --plot ${WORK}/correlate.svg)
file(READ ${WORK}/correlate.svg svg)
if(NOT svg MATCHES "<svg" OR NOT svg MATCHES "[0-9]+ measured figures" OR NOT svg MATCHES "holdout set")
  message(FATAL_ERROR "bench correlate --plot: correlate.svg is not the chart")
endif()
expect(2 "vpsim bench correlate: -o .*correlate.txt: the plot is written as .png, .svg or .pdf"
       bench correlate --plot ${WORK}/correlate.txt)
if(EXISTS ${WORK}/correlate.txt)
  message(FATAL_ERROR "bench correlate --plot with a bad format left ${WORK}/correlate.txt")
endif()
expect(2 "no-such-dir/c.png: cannot write" bench correlate --plot ${WORK}/no-such-dir/c.png)
message(STATUS "ok: bench correlate --plot")
