"""Threads: the GIL is released during runs, so Python threads go on and can run studies."""
import threading
import time

import vpsim

AXES = {"memory.latency": [60, 240], "vertex_alu.contexts": [2, 6]}


def test_the_gil_is_released_during_a_run():
    span = {}

    def worker():
        span["start"] = time.perf_counter()
        vpsim.run()
        span["end"] = time.perf_counter()
    stamps = []
    t = threading.Thread(target=worker)
    t.start()
    while t.is_alive():
        stamps.append(time.perf_counter())
    t.join()
    # The middle 60 % of the call is inside the C++ run: this thread, looping on, must have run
    # there (with the GIL held it could not run at all until the call returned).
    length = span["end"] - span["start"]
    a, b = span["start"] + 0.2 * length, span["end"] - 0.2 * length
    inside = sum(1 for s in stamps if a <= s < b)
    assert inside > 0, f"this thread made no step in the middle of a {length:.3f} s run"


def test_two_threads_running_studies_give_the_serial_results():
    serial = [vpsim.study(axes=AXES), vpsim.study(axes={"preset": ["nv2a", "nv25"]})]
    got = [None, None]

    def one(i, axes):
        got[i] = vpsim.study(axes=axes)
    threads = [threading.Thread(target=one, args=(0, AXES)),
               threading.Thread(target=one, args=(1, {"preset": ["nv2a", "nv25"]}))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert serial[0].equals(got[0]) and serial[1].equals(got[1])
