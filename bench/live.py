"""Live table latency: mock-pin press -> SSE event at a client, and many SSE clients at once.

Runs the real app under waitress on 127.0.0.1 with gpiozero mock pins. Prints the
median and p99 from a TURN press to the event arriving at an SSE client, then holds
N clients (default 30) plus one "kiosk" for a while (default 60 s) while the table
changes every 0.5 s, and prints delivery latency p99, errors and the server's RSS.
Targets (issue 5): press to event <= 150 ms; p99 <= 100 ms under 30 clients; no errors; RSS <= 150 MB.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import resource
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion import config  # noqa: E402
from companion.app import build  # noqa: E402
from companion.devices.controls import mock_factory  # noqa: E402
from companion.games.rolling_bones.dice import FACE_IDS  # noqa: E402

PERFECT = list(FACE_IDS)  # every face once: a perfect skeleton, the hat and a gravestone


class Listener(threading.Thread):
    """One SSE client: records when each event arrives."""

    def __init__(self, port: int, keep: bool = True):
        super().__init__(daemon=True)
        self.port, self.arrivals, self.errors, self.ready = port, [], 0, threading.Event()
        self.keep, self.count = keep, 0  # keep=False: count events only (a soak must not hoard them)
        self.stop = False

    def run(self) -> None:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            conn.request("GET", "/events")
            response = conn.getresponse()
            if response.status != 200:
                self.errors += 1
                return
            while not self.stop:
                line = response.fp.readline()
                if not line:
                    break
                if line.startswith(b": connected"):
                    self.ready.set()
                if line.startswith(b"data:"):
                    self.count += 1
                    if self.keep:
                        self.arrivals.append((time.perf_counter(), json.loads(line[5:])))
        except OSError:
            if not self.stop:
                self.errors += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--presses", type=int, default=40)
    parser.add_argument("--clients", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=60)
    args = parser.parse_args()
    from waitress.server import create_server

    settings = config.load()
    settings["camera"]["folder"] = "/nonexistent"
    pins = mock_factory()
    companion = build(settings, demo=True, pin_factory=pins, instance=Path(tempfile.mkdtemp()), rng=random.Random(0))
    server = create_server(companion.app, host="127.0.0.1", port=0, threads=48)
    threading.Thread(target=server.run, daemon=True).start()
    port = server.effective_port
    table = companion.table

    # 1. press -> event: TURN after a burial, undone by the table each time
    kiosk = Listener(port)
    kiosk.start()
    kiosk.ready.wait(5)
    latencies = []
    turn_pin = pins.pin(17)
    for _ in range(args.presses):
        table.dispatch({"type": "roll", "faces": PERFECT})
        table.dispatch({"type": "bury"})
        time.sleep(0.05)
        seen = len(kiosk.arrivals)
        pressed = time.perf_counter()
        turn_pin.drive_low()
        turn_pin.drive_high()
        deadline = time.perf_counter() + 2
        while time.perf_counter() < deadline:
            fresh = [a for a in kiosk.arrivals[seen:] if a[1].get("player") == "Bob"]
            if fresh:
                latencies.append((fresh[0][0] - pressed) * 1000)
                break
            time.sleep(0.001)
        table.undo()
        table.undo()
        table.undo()
    latencies.sort()
    print(
        f"press -> SSE event: median {statistics.median(latencies):.1f} ms, p99 {latencies[int(len(latencies) * 0.99) - 1]:.1f} ms "
        f"over {len(latencies)}/{args.presses} presses (target <= 150 ms)"
    )

    # 2. many clients while the table changes twice a second
    clients = [Listener(port) for _ in range(args.clients)]
    for c in clients:
        c.start()
    for c in clients:
        c.ready.wait(5)
    sent: list[float] = []
    end = time.perf_counter() + args.seconds
    flip = 0
    while time.perf_counter() < end:
        sent.append(time.perf_counter())
        table.dispatch({"type": "roll", "faces": PERFECT}) if flip % 2 == 0 else table.undo()
        flip += 1
        time.sleep(0.5)
    time.sleep(0.5)
    delays = []
    for c in [*clients, kiosk]:
        c.stop = True
        for t_sent in sent:
            after = [t for t, _ in c.arrivals if t >= t_sent]
            if after:
                delays.append((after[0] - t_sent) * 1000)
    delays.sort()
    errors = sum(c.errors for c in clients)
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"{args.clients} clients + kiosk for {args.seconds:.0f} s: {len(sent)} changes, delivery median "
        f"{statistics.median(delays):.1f} ms, p99 {delays[int(len(delays) * 0.99) - 1]:.1f} ms (target <= 100 ms), "
        f"errors {errors}, peak RSS {rss_mb:.0f} MB (whole process, clients included; target <= 150 MB)"
    )
    print("baseline: polling /api/state once a second would deliver a change in ~500 ms on average")
    server.close()
    companion.close()


if __name__ == "__main__":
    main()
