"""Rolling Bones as the Table plays it: start, apply, view."""

from __future__ import annotations

import random
from typing import Any

from .dice import FACE_IDS, kind_of
from .match import Match


def faces_of(kind: str) -> list[str]:
    return [f for f in FACE_IDS if kind_of(f) == kind]


class RollingBonesRules:
    name = "rolling-bones"

    def start(self, setup: dict[str, Any]) -> Match:
        return Match.start(setup)

    def apply(self, state: Match, command: dict[str, Any], rng: random.Random) -> tuple[Match, dict[str, Any]]:
        # Rolls are physical dice read by the camera. With no camera, "throw" has the table throw
        # them with its random source; the event records the faces, so a replay rolls nothing.
        if command.get("type") == "throw":
            faces = [rng.choice(faces_of(kind)) for kind, n in state.turn.to_throw for _ in range(n)]
            command = {"type": "roll", "faces": faces}
        return state.apply(command), dict(command)

    def view(self, state: Match) -> dict[str, Any]:
        return state.view()
