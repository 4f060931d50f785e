"""Every game the Table can host, by name."""

from __future__ import annotations

from typing import Any

from .dark_tomb.rules import DarkTombRules
from .ghosts.rules import GhostsRules
from .mausoleum.rules import MausoleumRules
from .rolling_bones.rules import RollingBonesRules
from .sepulchre.rules import SepulchreRules


def all_games() -> dict[str, Any]:
    games: list[Any] = [RollingBonesRules(), DarkTombRules(), SepulchreRules(), GhostsRules(), MausoleumRules()]
    return {g.name: g for g in games}
