"""The companion's own play: the search that tells the most, and when a guess beats a search."""

from __future__ import annotations

from typing import Any

from .deduce import deduce
from .game import Ghosts

GUESS_AT = 0.5  # guess once the likeliest haunt is at least even money: a wrong guess costs a secret


def advice(game: Ghosts, seat: int, over: int | None = None, hand: frozenset[int] = frozenset()) -> dict[str, Any]:
    """For `seat` against their left opponent: chances, the best guess, and (given the card to play) the best light."""
    deduction = deduce(game.knowledge(seat, hand))
    best = deduction.best_guess
    result: dict[str, Any] = {
        **deduction.to_json(),
        "guess": {"tombstone": best, "haunt": deduction.haunt[best], "secret": deduction.secret[best]},
    }
    if deduction.haunt[best] >= GUESS_AT:
        result["advice"] = "guess"
        result["why"] = f"guess {best}: it is the haunt {deduction.haunt[best]:.0%} of the time"
    if over is None:
        result.setdefault("advice", "search")
        result.setdefault("why", f"search: no tombstone is the haunt more than {deduction.haunt[best]:.0%} of the time")
        return result
    options: list[dict[str, Any]] = []
    for light in ["flood", *game.lights_for(seat)]:
        for placement in game.placements(over, light):
            options.append(
                {
                    **placement.to_json(),
                    "yes": round(deduction.chance_of_yes(placement.area), 6),
                    "bits": round(deduction.information(placement.area), 6),
                }
            )
    options.sort(key=lambda o: -o["bits"])
    result["searches"] = options
    top = options[0]
    if "advice" not in result:
        result["advice"] = "search"
        result["why"] = f"search with {top['light']}: {top['bits']:.2f} bits (yes {top['yes']:.0%})"
    return result
