"""The Ghosts in the Graveyard deduction helper on late-game positions: median of repeated runs.

Each position is a truthful game's record after 20 questions (lights and guesses, two decoys
found). Timed: the exact chances (`deduce`) and the whole advice for a 4-player table (every
legal placement of the Flood Light and four flashlights on the card just played). Baseline in
the same run: the same count over Python sets, one candidate set at a time. Target: <= 100 ms.

    python bench/ghosts_deduce.py [--positions 10] [--repeats 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from dataclasses import replace
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import median_ms, pin_one_core  # noqa: E402
from companion.games.ghosts.advice import advice  # noqa: E402
from companion.games.ghosts.board import LANTERN, Flashlight, flood  # noqa: E402
from companion.games.ghosts.deduce import Knowledge, deduce  # noqa: E402
from companion.games.ghosts.game import Ghosts  # noqa: E402

SHAPES = {
    "bar": [[0, 0], [0, 1], [0, 2], [0, 3]],
    "ell": [[0, 0], [1, 0], [2, 0], [2, 1]],
    "plus": [[0, 1], [1, 0], [1, 1], [1, 2], [2, 1]],
}
TARGET_MS = 100


def position(seed: int) -> tuple[Ghosts, int]:
    """A 4-player game where ann has asked bob 20 questions truthfully; the card ann plays next."""
    rng = random.Random(seed)
    deck = list(range(1, 51))
    rng.shuffle(deck)
    held, deck = set(deck[:3]), deck[3:]
    lights = {name: Flashlight.from_json(name, cells) for name, cells in SHAPES.items()}
    lights["lantern"] = Flashlight("lantern", LANTERN)
    game = Ghosts.start(
        {
            "players": [{"name": n, "flashlight": f} for n, f in zip("abcd", ["lantern", *SHAPES], strict=True)],
            "flashlights": SHAPES,
        }
    )
    said = []
    for step in range(20):
        card = deck.pop()
        if step in (6, 13):  # a decoy found
            decoy = sorted(held)[0]
            held.discard(decoy)
            said.append({"kind": "guess", "by": 0, "of": 1, "tombstone": decoy, "answer": "decoy"})
            continue
        light = rng.choice(sorted(lights))
        area = (
            flood(card, rng.choice("NESW")) if rng.random() < 0.5 else rng.choice(lights[light].placements(card)).area
        )
        said.append({"kind": "asked", "by": 0, "of": 1, "asked": sorted(area), "answer": bool(held & area)})
    revealed = tuple(e["tombstone"] for e in said if e["kind"] == "guess")
    played = tuple(t for t in range(1, 51) if t not in held and t not in revealed and t not in deck)[:20]
    bob = replace(game.players[1], revealed=revealed)
    players = (game.players[0], bob, *game.players[2:])
    return replace(game, players=players, played=played, said=tuple(said)), deck.pop()


def brute_force(knowledge: Knowledge) -> int:
    fits = 0
    for secrets in combinations(range(1, 51), 3):
        if (knowledge.crossed | knowledge.hand) & set(secrets):
            continue
        held, ok = set(secrets), True
        for e in knowledge.events:
            if hasattr(e, "area"):
                ok = ok and bool(held & e.area) == e.answer
            elif getattr(e, "answer", "") == "no":
                ok = ok and e.tombstone not in held
            else:
                ok = ok and e.tombstone in held
                held.discard(e.tombstone)
        fits += ok
    return fits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    pin_one_core()
    deduce_ms, advice_ms, baseline_ms, options = [], [], [], []
    for seed in range(args.positions):
        game, card = position(seed)
        knowledge = game.knowledge(0)
        assert deduce(knowledge).consistent == brute_force(knowledge)
        deduce_ms.append(median_ms(lambda k=knowledge: deduce(k), args.repeats))
        advice_ms.append(median_ms(lambda g=game, c=card: advice(g, 0, over=c), args.repeats))
        baseline_ms.append(median_ms(lambda k=knowledge: brute_force(k), 1 + args.repeats // 2))
        options.append(len(advice(game, 0, over=card)["searches"]))
    d, a, b = (statistics.median(x) for x in (deduce_ms, advice_ms, baseline_ms))
    print(
        f"{args.positions} late-game positions (20 questions, 2 decoys found), one core, median of {args.repeats} runs"
    )
    print(f"deduce: {d:.1f} ms  (baseline, Python sets: {b:.0f} ms; {b / d:.0f}x)")
    print(f"advice with {statistics.median(options):.0f} legal searches scored: {a:.1f} ms  (target <= {TARGET_MS} ms)")


if __name__ == "__main__":
    main()
