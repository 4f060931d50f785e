"""Soak the demo table: reads, Stage turns, button presses and 30 live clients for a while.

Prints one line a minute (server RSS, command latency median/p99, SSE delivery p99, errors so
far) and a summary. Target (issue 8): flat memory, no error. `--minutes 30` for the real run.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.live import PERFECT, Listener  # noqa: E402
from companion import config  # noqa: E402
from companion.app import build  # noqa: E402
from companion.devices.controls import mock_factory  # noqa: E402
from companion.web.tomb import demo_stage  # noqa: E402


def rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--minutes", type=float, default=2)
    parser.add_argument("--clients", type=int, default=30)
    args = parser.parse_args()
    from waitress.server import create_server

    settings = config.load()
    pins = mock_factory()
    companion = build(settings, demo=True, pin_factory=pins, instance=Path(tempfile.mkdtemp()), rng=random.Random(0))
    server = create_server(companion.app, host="127.0.0.1", port=0, threads=48)
    threading.Thread(target=server.run, daemon=True).start()
    clients = [Listener(server.effective_port, keep=False) for _ in range(args.clients)]
    for c in clients:
        c.start()
    table, referee, rng = companion.table, companion.referee, random.Random(1)
    latencies: list[float] = []
    errors = 0
    start = time.monotonic()
    next_report = start + 60
    print(
        f"{'min':>4} {'RSS MB':>7} {'cmd p50 ms':>10} {'cmd p99 ms':>10} {'errors':>6} {'events/client':>13}",
        flush=True,
    )
    while time.monotonic() - start < args.minutes * 60:
        t0 = time.perf_counter()
        try:
            action = rng.random()
            if action < 0.3:  # a Rolling Bones throw read by the camera, then put back
                if table.game != "rolling-bones":
                    table.new_game("rolling-bones", {"players": ["Ann", "Bob"]})
                if table.state.turn.phase != "throw":
                    table.new_game("rolling-bones", {"players": ["Ann", "Bob"]})
                referee.handle("undertaker")
            elif action < 0.5:  # a Dark Tomb round with a Stage turn
                table.new_game("dark-tomb", {"scenario": demo_stage()})
                for _ in range(2):
                    table.dispatch({"type": "next_turn"})
                table.dispatch({"type": "stage_turn"})
            elif action < 0.8:  # buttons: TURN press through the mock pin
                pin = pins.pin(17)
                pin.drive_low()
                pin.drive_high()
                referee.wait_idle(2)
            else:
                table.new_game("rolling-bones", {"players": ["Ann", "Bob"]})
                table.dispatch({"type": "roll", "faces": PERFECT})
                table.dispatch({"type": "bury"})
                table.undo()
        except Exception as error:  # refused plays are fine; anything else counts
            from companion.errors import IllegalPlay

            if not isinstance(error, IllegalPlay):
                errors += 1
        latencies.append((time.perf_counter() - t0) * 1000)
        time.sleep(0.2)
        if time.monotonic() >= next_report:
            recent = sorted(latencies[-300:])
            print(
                f"{(time.monotonic() - start) / 60:4.0f} {rss_mb():7.1f} {statistics.median(recent):10.1f} "
                f"{recent[int(len(recent) * 0.99) - 1]:10.1f} {errors + sum(c.errors for c in clients):6d} "
                f"{min(c.count for c in clients):13d}",
                flush=True,
            )
            next_report += 60
    for c in clients:
        c.stop = True
    lat = sorted(latencies)
    print(
        f"summary: {len(lat)} actions over {args.minutes:g} min, command median {statistics.median(lat):.1f} ms, "
        f"p99 {lat[int(len(lat) * 0.99) - 1]:.1f} ms, errors {errors + sum(c.errors for c in clients)}, "
        f"RSS now {rss_mb():.1f} MB (whole process incl. {args.clients} client threads)"
    )
    server.close()
    companion.close()


if __name__ == "__main__":
    main()
