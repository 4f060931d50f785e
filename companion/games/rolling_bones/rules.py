"""Rolling Bones as the Table plays it: start, apply, view."""

from __future__ import annotations

import random
from typing import Any

from .. import as_recorded
from .match import Match

RECORDED = {"roll": ("faces",), "lay": ("face", "slot"), "pay": ("dice",)}  # what a command keeps in the log


class RollingBonesRules:
    name = "rolling-bones"

    def start(self, setup: dict[str, Any]) -> Match:
        return Match.start(setup)

    def apply(self, state: Match, command: dict[str, Any], rng: random.Random) -> tuple[Match, dict[str, Any]]:
        # Rolls are physical dice read by the camera. With no camera, "throw" has the table throw
        # them with its random source; the event records the faces, so a replay rolls nothing.
        if command.get("type") == "throw":
            command = {"type": "roll", "faces": state.turn.random_throw(rng)}
        return state.apply(command), as_recorded(command, *RECORDED.get(command["type"], ()))

    def view(self, state: Match) -> dict[str, Any]:
        return state.view()
