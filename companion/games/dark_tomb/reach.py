"""Attack reach: ranges by attack kind and the cells a monster could attack a target from.

One ``Reach`` per Stage turn caches line of sight and corner distances,
which depend on the map only (pieces never block attacks).
"""

from __future__ import annotations

import math

from .grid import Cell, Grid
from .paths import distances, manhattan
from .scenario import Attack
from .sight import line_of_sight


class Reach:
    def __init__(self, grid: Grid):
        self.grid = grid
        self._sight: dict[tuple[Cell, Cell], bool] = {}
        self._corner: dict[tuple[Cell, int], dict[Cell, int]] = {}

    def sight(self, a: Cell, b: Cell) -> bool:
        key = (a, b) if a <= b else (b, a)  # line of sight is symmetric
        if key not in self._sight:
            self._sight[key] = line_of_sight(self.grid, *key)
        return self._sight[key]

    def _corner_from(self, target: Cell, limit: int) -> dict[Cell, int]:
        key = (target, limit)
        if key not in self._corner:
            self._corner[key] = distances([target], self.grid.sight_floor, limit)
        return self._corner[key]

    def range(self, attack: Attack, cell: Cell, target: Cell) -> float:
        """The attack's range from ``cell`` to ``target`` (corner: around walls; others: Manhattan)."""
        if attack.kind == "corner":
            return self._corner_from(target, attack.max_range).get(cell, math.inf)
        return manhattan(cell, target)

    def within_max(self, attack: Attack, cell: Cell, target: Cell) -> bool:
        """Reachable by the attack if it had no minimum: range <= max, and sight for a line attack."""
        if self.range(attack, cell, target) > attack.max_range:
            return False
        return attack.kind != "line" or self.sight(cell, target)

    def in_range(self, attack: Attack, cell: Cell, target: Cell) -> bool:
        return self.within_max(attack, cell, target) and self.range(attack, cell, target) >= attack.min_range

    def cells_around(self, attack: Attack, target: Cell) -> list[Cell]:
        """Every map cell within the attack's maximum range of ``target`` (sight not yet checked)."""
        if attack.kind == "corner":
            return list(self._corner_from(target, attack.max_range))
        tx, ty, r = target[0], target[1], attack.max_range
        return [
            (tx + dx, ty + dy)
            for dx in range(-r, r + 1)
            for dy in range(-(r - abs(dx)), r - abs(dx) + 1)
            if self.grid.inside((tx + dx, ty + dy))
        ]

    def attack_cells(self, attack: Attack, target: Cell) -> set[Cell]:
        return {c for c in self.cells_around(attack, target) if self.in_range(attack, c, target)}
