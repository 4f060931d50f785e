"""Hundreds of live pages at once: page and action latency with 500 SSE clients, 20 % of them reconnecting.

Runs the real app (waitress, 48 threads) and its live server (web/stream.py) on 127.0.0.1 with mock
pins. The clients run on one asyncio loop in a process of their own: 400 stay connected, 100 drop their stream
every 1-3 s and connect again. Every 0.5 s an action goes through the web API (a new game named for
its number) and each steady client records when it hears it. Meanwhile a page is fetched every 0.1 s.
Baseline in the same run: the page's latency with no live page open. Targets (issue 31): no page
request or action blocked; action-to-update p99 <= 500 ms.

    python bench/live_pages.py [--clients 500] [--seconds 30]
"""

from __future__ import annotations

import argparse
import asyncio
import http.cookiejar
import json
import multiprocessing
import random
import re
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.soak import rss_mb  # noqa: E402
from companion import config  # noqa: E402
from companion.app import build, live_server  # noqa: E402
from companion.devices.controls import mock_factory  # noqa: E402

MARK = re.compile(rb'"players": \["A(\d+)"')


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, int(len(ordered) * 0.99) - 1)] if ordered else float("nan")


class Pages:
    """The clients, on one asyncio loop in a process of their own (so they do not share the server's GIL)."""

    def __init__(self, port: int, steady: int, reconnecting: int) -> None:
        self.port, self.steady, self.reconnecting = port, steady, reconnecting
        self.heard: dict[int, list[float]] = {}  # action number -> first arrival (time.monotonic) at each steady client
        self.connects = self.errors = 0
        self.stop = multiprocessing.Event()
        self.connected = multiprocessing.Event()
        self.results: multiprocessing.Queue = multiprocessing.Queue()
        self._open = 0

    def run(self) -> None:
        asyncio.run(self._all())
        self.results.put((self.heard, self.connects, self.errors))

    async def _all(self) -> None:
        clients = [self._client(False) for _ in range(self.steady)] + [
            self._client(True) for _ in range(self.reconnecting)
        ]
        await asyncio.gather(*clients)

    async def _client(self, reconnecting: bool) -> None:
        first, seen = True, set()
        while not self.stop.is_set():
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", self.port, limit=2**20)
            except OSError:
                self.errors += 1
                await asyncio.sleep(1)
                continue
            writer.write(b"GET /events HTTP/1.1\r\nHost: localhost\r\n\r\n")
            self.connects += 1
            until = time.monotonic() + (random.uniform(1, 3) if reconnecting else 1e9)
            try:
                while not self.stop.is_set() and time.monotonic() < until:
                    line = await asyncio.wait_for(reader.readline(), timeout=0.5)
                    if not line:
                        self.errors += 1
                        break
                    if first and line.startswith(b": connected"):
                        first = False
                        self._open += 1
                        if self._open >= self.steady + self.reconnecting:
                            self.connected.set()
                    if not reconnecting and line.startswith(b"data:"):
                        mark = MARK.search(line)
                        if mark and int(mark[1]) not in seen:  # later snapshots of the same game: heard already
                            seen.add(int(mark[1]))
                            self.heard.setdefault(int(mark[1]), []).append(time.monotonic())
            except TimeoutError:
                pass
            except (OSError, ValueError):
                self.errors += 1
            writer.close()


def page_latencies(base: str, seconds: float) -> list[float]:
    out = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        start = time.perf_counter()
        urllib.request.urlopen(f"{base}/kiosk", timeout=30).read()
        urllib.request.urlopen(f"{base}/api/state", timeout=30).read()
        out.append((time.perf_counter() - start) * 1000)
        time.sleep(0.1)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=30)
    args = parser.parse_args()
    from waitress.server import create_server

    settings = config.load()
    settings["camera"]["folder"] = "/nonexistent"
    companion = build(
        settings, demo=True, pin_factory=mock_factory(), instance=Path(tempfile.mkdtemp()), rng=random.Random(0)
    )
    server = create_server(companion.app, host="127.0.0.1", port=0, threads=48, asyncore_use_poll=True)
    threading.Thread(target=server.run, daemon=True).start()
    base = f"http://127.0.0.1:{server.effective_port}"
    live = live_server(companion)
    live_port = live.start("127.0.0.1", 0)

    baseline = page_latencies(base, min(10.0, args.seconds / 3))
    reconnecting = args.clients // 5
    pages = Pages(live_port, args.clients - reconnecting, reconnecting)
    clients = multiprocessing.Process(target=pages.run, daemon=True)
    clients.start()
    if not pages.connected.wait(60):
        print(f"not all {args.clients} pages connected in 60 s")
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    csrf = json.loads(opener.open(f"{base}/api/state").read())["csrf"]
    busy: list[float] = []
    fetcher = threading.Thread(target=lambda: busy.extend(page_latencies(base, args.seconds)), daemon=True)
    fetcher.start()
    sent: dict[int, float] = {}
    blocked = 0
    end = time.monotonic() + args.seconds
    n = 0
    while time.monotonic() < end:
        body = json.dumps({"game": "rolling-bones", "setup": {"players": [f"A{n}", "B"]}}).encode()
        request = urllib.request.Request(
            f"{base}/api/new-game", body, {"Content-Type": "application/json", "X-CSRF-Token": csrf}
        )
        sent[n] = time.monotonic()
        try:
            opener.open(request, timeout=30).read()
        except OSError:
            blocked += 1
        n += 1
        time.sleep(0.5)
    fetcher.join()
    time.sleep(1)
    pages.stop.set()
    heard, connects, errors = pages.results.get(timeout=30)
    clients.join(10)
    delays = [(t - sent[k]) * 1000 for k, times in heard.items() if k in sent for t in times]
    expected = len(sent) * pages.steady
    print(
        f"{args.clients} live pages ({reconnecting} reconnecting every 1-3 s), {len(sent)} actions over {args.seconds:.0f} s"
    )
    print(
        f"page (/kiosk + /api/state): median {statistics.median(busy):.1f} ms, p99 {p99(busy):.1f} ms "
        f"(baseline, no live pages: p99 {p99(baseline):.1f} ms; {p99(busy) / p99(baseline):.1f}x)"
    )
    print(
        f"action -> update at each steady page: median {statistics.median(delays):.1f} ms, p99 {p99(delays):.1f} ms; "
        f"{len(delays)}/{expected} heard (target p99 <= 500 ms)"
    )
    print(
        f"stream connects {connects}, client errors {errors}, actions failed {blocked}; "
        f"server threads {threading.active_count()}, server RSS {rss_mb():.0f} MB"
    )
    live.close()
    server.close()


if __name__ == "__main__":
    main()
