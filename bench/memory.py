"""The server's memory as photos are read: RSS after start, after the first read and after each hundred.

Each read is UNDERTAKER on the demo table (the camera replays the demo photos) twice: a Rolling Bones
throw (the dice reader) and a Sepulchre board (the pieces reader). Target (issue 31): under 300 MB
after any number of reads; the baseline is the same process before its first read.

    python bench/memory.py [--reads 300]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.soak import rss_mb  # noqa: E402
from companion import config  # noqa: E402
from companion.app import build  # noqa: E402
from companion.devices.controls import mock_factory  # noqa: E402

TARGET_MB = 300


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reads", type=int, default=300)
    args = parser.parse_args()
    companion = build(
        config.load(), demo=True, pin_factory=mock_factory(), instance=Path(tempfile.mkdtemp()), rng=random.Random(0)
    )
    table, referee = companion.table, companion.referee
    started = rss_mb()
    print(f"after start {started:.0f} MB (the baseline)", flush=True)
    read = 0
    for n in range(1, args.reads + 1):
        table.new_game("rolling-bones", {"players": ["Ann", "Bob"]})
        referee.handle("undertaker")
        referee.wait_idle(30)
        read += bool((table.desk().get("reading") or {}).get("dice"))
        table.new_game("sepulchre", {"players": ["north", "south", "west", "east"]})  # and the graves' pieces
        referee.handle("undertaker")
        referee.wait_idle(30)
        if n == 1 or n % 100 == 0:
            now = rss_mb()
            print(
                f"after {n} reads ({read} with dice read): {now:.0f} MB, {now - started:+.0f} MB on the baseline",
                flush=True,
            )
    verdict = "within" if rss_mb() <= TARGET_MB else "OVER"
    print(f"{verdict} the {TARGET_MB} MB target")
    companion.close()


if __name__ == "__main__":
    main()
