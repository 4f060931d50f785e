"""Dark Tomb: the map, line of sight, paths, monster activation and the Stage turn."""

from .activation import Activation, AttackRoll
from .grid import Grid
from .scenario import Attack, Character, Monster, Scenario
from .sight import line_of_sight
from .stage_turn import D20, StageTurn, run_stage_turn
from .text import ascii_map, report

__all__ = [
    "Activation",
    "Attack",
    "AttackRoll",
    "Character",
    "D20",
    "Grid",
    "Monster",
    "Scenario",
    "StageTurn",
    "ascii_map",
    "line_of_sight",
    "report",
    "run_stage_turn",
]
