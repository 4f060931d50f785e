"""Ghosts in the Graveyard as the Table plays it: guesses, searches, Vanish, flashlight shapes."""

from __future__ import annotations

import random
from typing import Any

from ...errors import BadInput, IllegalPlay
from .. import as_recorded
from .deduce import deduce
from .game import Ghosts


class GhostsRules:
    name = "ghosts"

    def start(self, setup: dict[str, Any]) -> Ghosts:
        return Ghosts.start(setup)

    def apply(self, state: Ghosts, command: dict[str, Any], rng: random.Random) -> tuple[Ghosts, dict[str, Any]]:
        kind = command["type"]
        if kind == "vanish":
            return state.vanish(), as_recorded(command)
        if kind == "guess":
            said = ("tombstone", "answer", "raven", "reveal", "discard")
            new = state.guess(
                command.get("tombstone"),
                command.get("answer"),
                raven=command.get("raven") is True,
                reveal=command.get("reveal"),
                discard=command.get("discard", []),
            )
            return _believable(state, new), as_recorded(command, *said)
        if kind == "search":
            keys = ("played", "light", "answer", "direction", "turn", "origin")
            new = state.search(*(command.get(k) for k in keys))
            return _believable(state, new), as_recorded(command, *keys)
        if kind == "flashlight":
            new = state.define_flashlight(command.get("name"), command.get("cells"), command.get("player"))
            return new, as_recorded(command, "name", "cells", "player")
        if kind == "next_turn":
            raise IllegalPlay("the turn passes by itself once a guess or a search is entered")
        raise BadInput(f"unknown Ghosts in the Graveyard command {kind!r}")

    def view(self, state: Ghosts) -> dict[str, Any]:
        view = state.view()
        view["chances"] = _public_chances(state)
        return view


def _believable(before: Ghosts, after: Ghosts) -> Ghosts:
    """Refuse an answer that no set of secrets fits with what the same player said before: a slip at the table."""
    if len(after.said) == len(before.said):
        return after
    target = after.said[-1]["of"]
    asker = (target - 1) % len(after.players)
    try:
        deduce(after.knowledge(asker))
    except BadInput:
        raise IllegalPlay(
            f"{after.players[target].name}'s answer contradicts their earlier answers: check it, or undo the slip"
        ) from None
    return after


def _public_chances(state: Ghosts) -> dict[str, Any] | None:
    """The current player's view of their opponent from what everyone heard (no one's hand)."""
    if state.over:
        return None
    deduction = deduce(state.knowledge(state.current))
    top = sorted(deduction.haunt, key=lambda t: (-deduction.haunt[t], t))
    return {
        "of": state.players[state.left_of(state.current)].name,
        "consistent": deduction.consistent,
        "held": deduction.held,
        "haunt": {str(t): round(deduction.haunt[t], 4) for t in top},
        "best_guess": top[0],
    }
