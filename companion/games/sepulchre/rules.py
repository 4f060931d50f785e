"""Sepulchre as the Table plays it: observe the graves (or override), next turn."""

from __future__ import annotations

import random
from typing import Any

from ...errors import BadInput
from .. import as_recorded
from .undertaker import Sepulchre


class SepulchreRules:
    name = "sepulchre"

    def start(self, setup: dict[str, Any]) -> Sepulchre:
        return Sepulchre.start(setup)

    def apply(self, state: Sepulchre, command: dict[str, Any], rng: random.Random) -> tuple[Sepulchre, dict[str, Any]]:
        kind = command["type"]
        if kind == "observe":
            return state.observe(command.get("graves")), as_recorded(command, "graves")
        if kind == "override":
            reason = command.get("reason")
            if not isinstance(reason, str) or not reason.strip():
                raise BadInput("an override needs a reason (it is recorded)")
            return state.observe(command.get("graves"), override=reason.strip()), as_recorded(
                command, "graves", "reason"
            )
        if kind == "next_turn":
            return state.next_turn(), as_recorded(command)
        raise BadInput(f"unknown Sepulchre command {kind!r}")

    def view(self, state: Sepulchre) -> dict[str, Any]:
        return state.view()
