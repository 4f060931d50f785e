"""The Stage turn: the seismic d20, then every monster in reading order."""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

from .activation import Activation, Board, activate
from .grid import reading_order
from .reach import Reach
from .scenario import Scenario

QUAKE_FROM = 19


class D20:
    """The scenario's rolls first, in order; then the injected random source. Records every roll."""

    def __init__(self, rolls: tuple[int, ...] | list[int], rng: random.Random):
        self._queued = list(rolls)
        self._rng = rng
        self.rolled: list[int] = []

    def __call__(self) -> int:
        roll = self._queued.pop(0) if self._queued else self._rng.randint(1, 20)
        self.rolled.append(roll)
        return roll

    @property
    def unused(self) -> tuple[int, ...]:
        return tuple(self._queued)


@dataclass
class StageTurn:
    seismic_roll: int
    activations: list[Activation] = field(default_factory=list)
    after: Scenario | None = None
    rolled: list[int] = field(default_factory=list)

    @property
    def quake(self) -> bool:
        return self.seismic_roll >= QUAKE_FROM

    @property
    def stage_complete(self) -> bool:
        assert self.after is not None
        return self.after.grid.face_down_left() == 0 and not any(m.alive for m in self.after.monsters)

    @property
    def party_defeated(self) -> bool:
        assert self.after is not None
        return not any(c.alive for c in self.after.characters)

    def to_json(self) -> dict[str, Any]:
        assert self.after is not None
        return {
            "seismic": {"roll": self.seismic_roll, "quake": self.quake},
            "activations": [a.to_json() for a in self.activations],
            "characters": [
                {"id": c.id, "pos": list(c.pos), "hp": c.hp, "defeated": not c.alive} for c in self.after.characters
            ],
            "monsters": [
                {"id": m.id, "pos": list(m.pos), "hp": m.hp, "defeated": not m.alive} for m in self.after.monsters
            ],
            "stage_complete": self.stage_complete,
            "party_defeated": self.party_defeated,
        }


def run_stage_turn(scenario: Scenario, rng: random.Random) -> StageTurn:
    d20 = D20(scenario.rolls, rng)
    board = Board(Reach(scenario.grid), list(scenario.characters), list(scenario.monsters))

    turn = StageTurn(seismic_roll=d20())
    if turn.quake:
        for c in board.living_characters():
            board.characters[c.id] = _hurt(c, 1)

    order = sorted((m for m in board.monsters.values() if m.alive and m.revealed), key=lambda m: reading_order(m.pos))
    for monster in order:
        if board.monsters[monster.id].alive:
            turn.activations.append(activate(board, monster.id, d20))

    turn.after = scenario.with_pieces(
        tuple(board.characters[c.id] for c in scenario.characters),
        tuple(board.monsters[m.id] for m in scenario.monsters),
        d20.unused,
    )
    turn.rolled = d20.rolled
    return turn


def _hurt(piece, damage: int):
    return replace(piece, hp=piece.hp - damage)
