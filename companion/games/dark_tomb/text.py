"""Dark Tomb for people: a small ASCII map and a readable turn report."""

from __future__ import annotations

from .scenario import Scenario
from .stage_turn import StageTurn


def ascii_map(scenario: Scenario) -> str:
    """The map with characters as A, B, C… and monsters as a, b, c…, then a legend."""
    grid = [[scenario.grid.terrain((x, y)) for x in range(scenario.grid.width)] for y in range(scenario.grid.height)]
    legend = []
    for i, c in enumerate(p for p in scenario.characters if p.alive):
        mark = chr(ord("A") + i % 26)
        grid[c.pos[1]][c.pos[0]] = mark
        legend.append(f"{mark} {c.id} hp {c.hp}")
    for i, m in enumerate(p for p in scenario.monsters if p.alive):
        mark = chr(ord("a") + i % 26)
        grid[m.pos[1]][m.pos[0]] = mark
        legend.append(f"{mark} {m.id} hp {m.hp}")
    return "\n".join(["".join(row) for row in grid] + legend)


def report(before: Scenario, turn: StageTurn) -> str:
    lines = [
        f"Seismic d20: {turn.seismic_roll}" + (" - QUAKE: every character takes 1 damage" if turn.quake else " - calm")
    ]
    for act in turn.activations:
        lines.append(f"{act.monster}: {list(act.start)} -> {list(act.end)}. {act.why}.")
    assert turn.after is not None
    for c in turn.after.characters:
        lines.append(f"  {c.id}: " + ("defeated" if not c.alive else f"{c.hp} HP at {list(c.pos)}"))
    if turn.stage_complete:
        lines.append("Stage complete!")
    if turn.party_defeated:
        lines.append("The party is defeated.")
    lines.append(ascii_map(turn.after))
    return "\n".join(lines)
