"""Dark Tomb positions in a few lines of ASCII: letters are pieces, the rest is the map.

Upper-case letters are characters, lower-case letters monsters; each stands on
ground unless the piece's stats say ``on`` another terrain.
"""

from __future__ import annotations

import random

from companion.games.dark_tomb import Scenario, run_stage_turn

CHAR = {"hp": 10, "armor": 12}
MONSTER = {"hp": 5, "move": 3, "armor": 10, "attack": {"modifier": 3, "range": [1, 1], "damage": 2}}


def scenario(rows: str, rolls=(10,), **stats) -> Scenario:
    lines = [line.strip() for line in rows.strip().splitlines()]
    grid, characters, monsters = [], [], []
    for y, line in enumerate(lines):
        row = []
        for x, ch in enumerate(line):
            if ch.isalpha() and ch not in "OGg":
                extra = dict(stats.get(ch, {}))
                row.append(extra.pop("on", "."))
                if ch.isupper():
                    characters.append({"id": ch, "pos": [x, y], **CHAR, **extra})
                else:
                    attack = {**MONSTER["attack"], **extra.pop("attack", {})}
                    monsters.append({"id": ch, "pos": [x, y], **MONSTER, **extra, "attack": attack})
            else:
                row.append(ch)
        grid.append("".join(row))
    data = {"map": grid, "characters": characters, "monsters": monsters, "rolls": list(rolls)}
    return Scenario.from_json(data)


def turn(rows: str, rolls=(10,), seed: int = 0, **stats):
    return run_stage_turn(scenario(rows, rolls, **stats), random.Random(seed))


def act(result, monster: str):
    return next(a for a in result.activations if a.monster == monster)
