"""Dark Tomb as the Table plays it: the Stage map, whose turn it is, and the Stage turn.

Turn order is the characters' order, then the Stage. Every d20 a Stage turn
rolls is written into its event, so a replay gives the same game.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from ...errors import BadInput, IllegalPlay
from .. import as_recorded
from .grid import FACE_DOWN, TERRAIN_NAMES, Grid
from .scenario import Scenario
from .stage_turn import run_stage_turn

STAGE = "stage"


@dataclass(frozen=True)
class TombState:
    scenario: Scenario
    current: int = 0  # index into the living characters' turn order; len(order) = the Stage's turn
    stage_done: bool = False  # the Stage turn of this round has been run
    last_turn: dict[str, Any] | None = None
    round: int = 1

    @property
    def order(self) -> list[str]:
        return [c.id for c in self.scenario.characters if c.alive]

    @property
    def whose_turn(self) -> str:
        return STAGE if self.current >= len(self.order) else self.order[self.current]


class DarkTombRules:
    name = "dark-tomb"

    def start(self, setup: dict[str, Any]) -> TombState:
        if not isinstance(setup, dict) or "scenario" not in setup:
            raise BadInput('a Dark Tomb game starts from {"scenario": {...}}')
        return TombState(Scenario.from_json(setup["scenario"]))

    def apply(self, state: TombState, command: dict[str, Any], rng: random.Random) -> tuple[TombState, dict[str, Any]]:
        kind = command["type"]
        if kind == "next_turn":
            return self._next_turn(state), as_recorded(command)
        if kind == "stage_turn":
            return self._stage_turn(state, command, rng)
        if kind in ("paint", "reveal"):
            return self._paint(state, command), as_recorded(command, "cell", "terrain")
        if kind == "load":
            scenario = Scenario.from_json(command.get("scenario"))
            return replace(state, scenario=scenario), {"type": "load", "scenario": scenario.to_json()}
        if kind == "move":
            return self._move(state, command), as_recorded(command, "id", "pos", "hp")
        raise BadInput(f"unknown Dark Tomb command {kind!r}")

    def _next_turn(self, state: TombState) -> TombState:
        if state.whose_turn == STAGE:
            if not state.stage_done:
                raise IllegalPlay("it is the Stage turn: press SEISMIC to run it first")
            return replace(state, current=0, stage_done=False, round=state.round + 1)
        return replace(state, current=state.current + 1)

    def _stage_turn(
        self, state: TombState, command: dict[str, Any], rng: random.Random
    ) -> tuple[TombState, dict[str, Any]]:
        if state.whose_turn != STAGE:
            raise IllegalPlay(f"it is {state.whose_turn}'s turn; the Stage plays after the last character")
        if state.stage_done:
            raise IllegalPlay("the Stage turn of this round has been run: press TURN")
        entered = command.get("rolls", [])
        if not isinstance(entered, list) or not all(
            isinstance(r, int) and not isinstance(r, bool) and 1 <= r <= 20 for r in entered
        ):
            raise BadInput("rolls must be a list of d20 results, 1-20")
        turn = run_stage_turn(replace(state.scenario, rolls=tuple(entered)), rng)
        assert turn.after is not None
        after = replace(turn.after, rolls=())
        # The Stage turn ends the round for whoever is still standing.
        new = replace(
            state,
            scenario=after,
            stage_done=True,
            last_turn={**turn.to_json(), "round": state.round},  # the page says whose round its arrows are
            current=len([c for c in after.characters if c.alive]),
        )
        return new, {"type": "stage_turn", "rolls": turn.rolled}

    def _paint(self, state: TombState, command: dict[str, Any]) -> TombState:
        cell = command.get("cell")
        if not (
            isinstance(cell, list)
            and len(cell) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in cell)
        ):
            raise BadInput("cell must be [x, y]")
        x, y = cell
        grid = state.scenario.grid
        if not grid.inside((x, y)):
            raise BadInput(f"[{x}, {y}] is outside the map")
        terrain = command.get("terrain", ".")
        if not isinstance(terrain, str) or terrain not in TERRAIN_NAMES:
            raise BadInput(f"unknown terrain {terrain!r}")
        if command["type"] == "reveal" and grid.terrain((x, y)) != FACE_DOWN:
            raise IllegalPlay(f"[{x}, {y}] is not a face-down tile")
        rows = [row.ljust(grid.width, FACE_DOWN) for row in grid.rows]
        rows[y] = rows[y][:x] + terrain + rows[y][x + 1 :]
        scenario = replace(state.scenario, grid=Grid.parse(rows))
        scenario.check_board()
        return replace(state, scenario=scenario)

    def _move(self, state: TombState, command: dict[str, Any]) -> TombState:
        """The table moved a mini (or changed its HP) by hand."""
        data = state.scenario.to_json()
        for group in ("characters", "monsters"):
            for piece in data[group]:
                if piece["id"] == command.get("id"):
                    if "pos" in command:
                        piece["pos"] = command["pos"]
                    if "hp" in command:
                        piece["hp"] = command["hp"]
                    return replace(state, scenario=Scenario.from_json(data))
        raise BadInput(f"no piece called {command.get('id')!r}")

    def view(self, state: TombState) -> dict[str, Any]:
        scenario = state.scenario.to_json()
        scenario.pop("rolls")
        return {
            "scenario": scenario,
            "order": state.order,
            "whose_turn": state.whose_turn,
            "stage_done": state.stage_done,
            "round": state.round,
            "last_turn": state.last_turn,
            "width": state.scenario.grid.width,
            "height": state.scenario.grid.height,
        }
