"""Mausoleum as the Table plays it: draw, play, discard, buy and bury, TURN, and card corrections."""

from __future__ import annotations

import random
from typing import Any

from ...errors import BadInput
from .. import as_recorded
from .cards import cards_from_json
from .game import Mausoleum


class MausoleumRules:
    name = "mausoleum"

    def start(self, setup: dict[str, Any]) -> Mausoleum:
        if "cards" not in setup:
            raise BadInput("a Mausoleum setup carries the table's card list (the page adds the one it keeps)")
        return Mausoleum.start(setup.get("players"), cards_from_json(setup["cards"]))

    def apply(self, state: Mausoleum, command: dict[str, Any], rng: random.Random) -> tuple[Mausoleum, dict[str, Any]]:
        kind = command["type"]
        if kind == "draw":
            return state.draw(command.get("from")), as_recorded(command, "from")
        if kind == "play":
            keys = ("card", "to", "heir", "moves", "keep")
            new = state.play(
                command.get("card"),
                to=command.get("to"),
                heir=command.get("heir"),
                moves=command.get("moves"),
                keep=command.get("keep") is True,
            )
            return new, as_recorded(command, *keys)
        if kind == "discard":
            return state.throw_away(command.get("card")), as_recorded(command, "card")
        if kind == "buy":
            return state.buy(command.get("grave"), command.get("heirs")), as_recorded(command, "grave", "heirs")
        if kind == "next_turn":
            return state.end_turn(), as_recorded(command)
        if kind == "correct":
            new = state.correct(command.get("card"), command.get("value"), command.get("name"))
            return new, as_recorded(command, "card", "value", "name")
        raise BadInput(f"unknown Mausoleum command {kind!r}")

    def view(self, state: Mausoleum) -> dict[str, Any]:
        return state.view()
