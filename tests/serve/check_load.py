#!/usr/bin/env python3
"""200 heavy requests at once over loopback: every one is answered (200, or
503 with the server's message: busy or over its time limit) and none is
dropped; the page is still served while they run; the server's memory stays
bounded; and it answers normally after. Usage: check_load.py LAYOUTX"""
import sys
import threading
import time
import os
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server import Server  # noqa: E402

REQUESTS = 200
MEMORY_KIB = 1 << 20  # 1 GiB: far above what bounded work needs, far below an unbounded pile-up
# Heavy but legal: the largest pictures the server draws, long compositions,
# explain of a product, a swizzled comparison index by index.
HEAVY = [
    ("grid", {"expr": "(256,256):(256,1)", "color": "bank", "bits": "16"}),
    ("grid", {"expr": "Sw<3,4,3> o (256,256):(256,1)"}),
    ("explain", {"expr": "blocked_product(raked_product((4,8):(8,1),(8,4)), logical_divide((64,64),(8,8)))"}),
    ("eq", {"a": "Sw<3,4,3> o (512,512):(512,1)", "b": "Sw<2,4,3> o (512,512):(512,1)"}),
    ("offsets", {"expr": "(1024,1024):(1024,1)"}),
    ("evaluate", {"expr": " o ".join(["(64,64):(64,1)"] * 200)}),
]


def main():
    layoutx = sys.argv[1]
    problems = []
    with Server(layoutx, "--workers", "2", "--queue", "8", "--time-limit", "3") as server:
        peak = [server.resident_kib()]
        stop = threading.Event()

        def watch_memory():
            while not stop.is_set():
                peak[0] = max(peak[0], server.resident_kib())
                time.sleep(0.05)

        watcher = threading.Thread(target=watch_memory)
        watcher.start()

        def fire(i):
            call, params = HEAVY[i % len(HEAVY)]
            try:
                status, answer = server.api(call, timeout=120, **params)
            except Exception as e:  # a dropped connection is a failure
                return "request %d (%s): %s" % (i, call, e)
            if status == 200:
                return None
            if status == 503 and ("busy" in answer.get("message", "") or "limit" in answer.get("message", "")):
                return "503"
            return "request %d (%s): status %d %r" % (i, call, status, answer)

        page_times = []

        def page_while_loaded():
            time.sleep(0.5)
            for _ in range(5):
                start = time.monotonic()
                status = server.get("/", timeout=60)[0]
                page_times.append((status, time.monotonic() - start))
                time.sleep(0.2)

        page = threading.Thread(target=page_while_loaded)
        page.start()
        start = time.monotonic()
        with ThreadPoolExecutor(REQUESTS) as pool:
            results = list(pool.map(fire, range(REQUESTS)))
        elapsed = time.monotonic() - start
        page.join()
        stop.set()
        watcher.join()

        answered = results.count(None)
        refused = results.count("503")
        problems += [r for r in results if r not in (None, "503")][:10]
        if answered == 0:
            problems.append("no heavy request was answered")
        if any(status != 200 for status, _ in page_times):
            problems.append("the page was not served while loaded: %r" % page_times)
        slowest_page = max(t for _, t in page_times) if page_times else 0
        if slowest_page > 5:
            problems.append("the page took %.1f s while loaded" % slowest_page)
        if peak[0] > MEMORY_KIB:
            problems.append("resident memory reached %d MiB" % (peak[0] // 1024))
        if not server.alive():
            problems.append("the server ended under load")
        else:
            status, answer = server.api("evaluate", expr="(4,3):(3,1)")
            if (status, answer.get("value")) != (200, "(4,3):(3,1)"):
                problems.append("after the load: %d %r" % (status, answer))
        print("%d requests in %.1f s: %d answered, %d refused busy/over time; page while loaded at most %.2f s; "
              "peak memory %d MiB" % (REQUESTS, elapsed, answered, refused, slowest_page, peak[0] // 1024))
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
