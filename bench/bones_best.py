"""Best layout on 1,000 random 18-dice rolls vs brute force over all subsets, same run.

Prints the median ms per roll for both and the ratio. Target: <= 2 ms per roll.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import pin_one_core, time_ms  # noqa: E402
from companion.games.rolling_bones import Layout, best_layout, brute_force_best  # noqa: E402
from companion.games.rolling_bones.dice import FACES, KINDS  # noqa: E402


def random_roll(rng: random.Random) -> list[str]:
    return [rng.choice([f for f, (k, _) in FACES.items() if k == kind]) for kind in KINDS for _ in range(6)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rolls", type=int, default=1000)
    parser.add_argument("--brute-rolls", type=int, default=100, help="brute force is slow: fewer rolls")
    args = parser.parse_args()
    pin_one_core()
    rng = random.Random(2026)
    rolls = [random_roll(rng) for _ in range(args.rolls)]
    empty = Layout()
    fast = [time_ms(lambda r=r: best_layout(r, empty)) for r in rolls]
    brute = [time_ms(lambda r=r: brute_force_best(r, empty)) for r in rolls[: args.brute_rolls]]
    agree = sum(
        best_layout(r, empty).score().total == brute_force_best(r, empty).score().total
        for r in rolls[: args.brute_rolls]
    )
    fast_median, brute_median = statistics.median(fast), statistics.median(brute)
    print(f"best layout:  median {fast_median:.4f} ms per roll over {len(fast)} rolls (target <= 2 ms)")
    print(f"brute force:  median {brute_median:.4f} ms per roll over {len(brute)} rolls")
    print(f"ratio:        {brute_median / fast_median:.0f}x faster; scores agree on {agree}/{len(brute)} rolls")


if __name__ == "__main__":
    main()
