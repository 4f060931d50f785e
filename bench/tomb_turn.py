"""One Dark Tomb Stage turn on a 30x30 map, 20 monsters, 4 characters: median of repeated runs.

Baseline in the same run: the plain way, every search over the whole map
(no early stop) and every line of sight recomputed (no cache). Target: <= 50 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import pin_one_core, time_ms  # noqa: E402
from companion.games.dark_tomb import (  # noqa: E402
    Scenario,
    paths,  # noqa: E402
    run_stage_turn,
)
from companion.games.dark_tomb import activation as activation_module  # noqa: E402
from companion.games.dark_tomb import reach as reach_module  # noqa: E402


def big_scenario(seed: int) -> Scenario:
    rng = random.Random(seed)
    rows = []
    for y in range(30):
        row = ""
        for x in range(30):
            edge = x in (0, 29) or y in (0, 29)
            row += "#" if edge else rng.choices(".#O~", weights=[80, 10, 5, 5])[0]
        rows.append(row)
    floor = [(x, y) for y in range(30) for x in range(30) if rows[y][x] == "."]
    cells = rng.sample(floor, 24)
    kinds = ["line", "line", "corner", "pierce"]
    characters = [{"id": f"hero-{i}", "pos": list(cells[i]), "hp": 12, "armor": 13} for i in range(4)]
    monsters = [
        {
            "id": f"monster-{i}",
            "pos": list(cells[4 + i]),
            "hp": 5,
            "move": rng.randint(2, 5),
            "attack": {
                "modifier": 3,
                "range": rng.choice([[1, 1], [1, 3], [2, 4]]),
                "damage": 2,
                "kind": rng.choice(kinds),
                "targets": rng.choice([1, 1, 2]),
            },
        }
        for i in range(20)
    ]
    return Scenario.from_json({"map": rows, "characters": characters, "monsters": monsters})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    pin_one_core()
    scenarios = [big_scenario(seed) for seed in range(args.repeats)]
    turns = [time_ms(lambda s=s: run_stage_turn(s, random.Random(0))) for s in scenarios]
    results = [run_stage_turn(s, random.Random(0)).to_json() for s in scenarios]
    sight, search = reach_module.Reach.sight, activation_module.distances
    reach_module.Reach.sight = lambda self, a, b: reach_module.line_of_sight(self.grid, a, b)
    activation_module.distances = lambda starts, crossable, limit=None, until=None: paths.distances(
        starts, crossable, limit
    )
    try:
        plain = [time_ms(lambda s=s: run_stage_turn(s, random.Random(0))) for s in scenarios]
        same = all(run_stage_turn(s, random.Random(0)).to_json() == result for s, result in zip(scenarios, results))
    finally:
        reach_module.Reach.sight, activation_module.distances = sight, search
    median, base = statistics.median(turns), statistics.median(plain)
    print(
        f"stage turn (30x30, 20 monsters, 4 characters): median {median:.1f} ms, max {max(turns):.1f} ms "
        f"over {len(turns)} maps (target <= 50 ms)"
    )
    print(
        f"plain baseline (whole-map searches, no sight cache): median {base:.1f} ms; "
        f"ratio {base / median:.1f}x; same turns: {same}"
    )


if __name__ == "__main__":
    main()
