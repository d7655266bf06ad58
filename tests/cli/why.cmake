# vpsim why (docs/why.md): one behaviour per CASE, each a ctest of its own (tests/CMakeLists.txt).
# Causes known by construction: a tiny order queue, a memory latency nothing else can hide, and the
# nv25 default scene of issue 33 (the order queue, not the fetch the summary names).
# Run by ctest: cmake -DVPSIM=... -DSRC=... -DWORK=... -DCASE=... -P tests/cli/why.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)  # expect(code regex args...)
set(SKIN ${SRC}/examples/scenes/skinning.json)

if(CASE STREQUAL "order_queue")
  # Two references in flight and no post-transform cache (every reference is shaded, so a larger
  # cache cannot take work away): doubling the order queue is the largest saving.
  expect(0 "rank +change[^\n]*\n +1 +output.order_queue 2 -> 4 "
         why ${SKIN} --set output.order_queue=2 --set post_transform_cache.entries=0
         --only output.*,memory.*,vertex_alu.*,post_transform_cache.* --pairs 0 --jobs 2)
elseif(CASE STREQUAL "memory_latency")
  # A 100,000-cycle memory behind a fetch with every capacity at its maximum: only halving the
  # latency helps much, those capacities are skipped at their maximum, and the summary agrees.
  expect(0 "\n +1 +memory.latency 100000 -> 50000 +77,123 +50,000 +39.3 .*vertex_fetch.max_misses = 1024 \\(capacity\\): at its maximum \\(1024\\).*verdict +agrees: the summary.s bottleneck is vertex_fetch, and relaxing memory.latency \\(a parameter of the memory it waits for\\)"
         why ${SKIN} --set memory.latency=100000 --set vertex_fetch.fetch_window=4096 --set vertex_fetch.max_misses=1024
         --set vertex_fetch.input_buffers=1024 --set output.order_queue=1048576 --set output.buffers=1024
         --set vertex_fetch.queue=1024 --only memory.*,vertex_fetch.*,output.* --pairs 0 --jobs 2)
elseif(CASE STREQUAL "nv25")
  # Issue 33: nv25's summary names the vertex fetch's memory wait, but the fetch's own windows do
  # nothing; the order queue at 128 gives 137,341 cycles (-18.4 %), as much as halving the latency.
  expect(0 "baseline +168,300 cycles.*\n +1 +output.order_queue 64 -> 128 +137,341 +30,959 +18.4 .*\n +2 +memory.latency 120 -> 60 +138,016 .*no effect \\(same cycles\\): vertex_fetch.fetch_window, vertex_fetch.max_misses.*verdict +disagrees: the summary's bottleneck is vertex_fetch"
         why --preset nv25 --only output.order_queue,memory.latency,vertex_fetch.fetch_window,vertex_fetch.max_misses
         --pairs 0 --jobs 2)
elseif(CASE STREQUAL "pairs")
  # The top two together, their parts beside them; in JSON, with the schema and what was skipped.
  expect(0 "\"schema\": \"vpsim-why-1\".*\"pairs\": \\[\n +{\n +\"changes\": \\[[^]]*output.order_queue[^]]*memory.latency[^]]*\\],.*\"parts_sum\":.*\"super_additive\": (true|false).*\"skipped\": \\[.*\"agreement\""
         why --preset nv25 --only output.order_queue,memory.latency,front_end.* --pairs 2 --jobs 2 --json)
elseif(CASE STREQUAL "window")
  # --budget: the first draws whose references fit, stated; each run's config.json records it.
  expect(0 "window +the first 1 of 5 draws: 8 of 37 references"
         why ${SRC}/examples/scenes/strip.json --budget 10 --only output.order_queue --pairs 0 --out ${WORK}/w)
  file(GLOB cfgs ${WORK}/w/points/*/config.json)
  list(GET cfgs 0 cfg)
  file(READ ${cfg} text)
  if(NOT text MATCHES "\"draws\": 1,")
    message(SEND_ERROR "why --budget: a run's config.json does not record the window:\n${text}")
  endif()
elseif(CASE STREQUAL "run_draws")
  # vpsim run --draws N: the scene up to its N-th draw.
  expect(0 "draws +2\n +vertices \\(references\\) +[0-9,]+\n" run ${SRC}/examples/scenes/strip.json --draws 2)
  expect(2 "--draws: Value 0 not in range" run --draws 0)
elseif(CASE STREQUAL "topology")
  # --topology-file: that pipeline's own parameters (a delay stage's) are relaxed and named.
  expect(0 "\n +1 +delay_stage.latency 2 -> 1 .*verdict +agrees: the summary's bottleneck is delay_stage"
         why ${SKIN} --topology-file ${SRC}/examples/topologies/delay_stage.json --only delay_stage.*,output.order_queue
         --pairs 0 --jobs 2)
elseif(CASE STREQUAL "errors")
  expect(2 "--factor 1: must be a number above 1" why --factor 1)
  expect(2 "--only nothing.\\*: matches no capacity, rate or latency of this pipeline; they are: .*output.order_queue" why --only nothing.*)
  expect(2 "valid keys" why --set output.order_queu=4)
  expect(2 "--quiet without --out would print and keep nothing" why --quiet)
  expect(2 "no-such.json" why ${WORK}/no-such.json)
  expect(2 "--backend slurm: unknown backend; valid: local, parallel" why --backend slurm)
else()
  message(FATAL_ERROR "cli/why.cmake: unknown CASE ${CASE}")
endif()
