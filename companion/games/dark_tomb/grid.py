"""The Stage map: terrain per cell, what blocks movement and what blocks attacks."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ...errors import BadInput

Cell = tuple[int, int]  # (x, y): column from the left, row from the top
MOST_CELLS_A_SIDE = 32  # a map wider or taller than any table's board is a mistake (and unbounded work)

GROUND, WALL, OBSTACLE, WATER, GATE_CLOSED, GATE_OPEN, FACE_DOWN = ".", "#", "O", "~", "G", "g", "?"
TERRAIN_NAMES = {
    GROUND: "ground",
    WALL: "wall",
    OBSTACLE: "obstacle",
    WATER: "water",
    GATE_CLOSED: "closed gate",
    GATE_OPEN: "open gate",
    FACE_DOWN: "face-down tile",
}
MONSTER_WALKS = frozenset({GROUND, WATER, GATE_OPEN})
CHARACTER_WALKS = frozenset({GROUND, WATER, GATE_OPEN})  # water needs boards; the table vouches for that
BLOCKS_SIGHT = frozenset({WALL, GATE_CLOSED, FACE_DOWN})


def reading_order(cell: Cell) -> tuple[int, int]:
    """Left to right, top to bottom: smaller y first, then smaller x."""
    return (cell[1], cell[0])


@dataclass(frozen=True)
class Grid:
    rows: tuple[str, ...]

    @classmethod
    def parse(cls, data: object) -> Grid:
        if not isinstance(data, list) or not data or not all(isinstance(r, str) for r in data):
            raise BadInput("map must be a non-empty list of strings")
        width = max(len(r) for r in data)
        if max(width, len(data)) > MOST_CELLS_A_SIDE:
            raise BadInput(f"map is {width} x {len(data)} cells: at most {MOST_CELLS_A_SIDE} a side")
        for y, row in enumerate(data):
            for x, char in enumerate(row):
                if char not in TERRAIN_NAMES:
                    raise BadInput(f"map row {y}, column {x}: unknown terrain {char!r}")
        return cls(tuple(data))

    @cached_property
    def width(self) -> int:
        return max(len(r) for r in self.rows)

    @property
    def height(self) -> int:
        return len(self.rows)

    def terrain(self, cell: Cell) -> str:
        """Anything outside the strings is a face-down tile."""
        x, y = cell
        if 0 <= y < len(self.rows) and 0 <= x < len(self.rows[y]):
            return self.rows[y][x]
        return FACE_DOWN

    def inside(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.width and 0 <= cell[1] < self.height

    @cached_property
    def sight_blockers(self) -> frozenset[Cell]:
        return frozenset(
            (x, y) for y in range(self.height) for x in range(self.width) if self.terrain((x, y)) in BLOCKS_SIGHT
        )

    @cached_property
    def sight_floor(self) -> frozenset[Cell]:
        """Cells attacks pass through (a corner attack's paths)."""
        return frozenset(
            (x, y) for y in range(self.height) for x in range(self.width) if self.terrain((x, y)) not in BLOCKS_SIGHT
        )

    def blocks_sight(self, cell: Cell) -> bool:
        return not self.inside(cell) or cell in self.sight_blockers

    @cached_property
    def monster_floor(self) -> frozenset[Cell]:
        return frozenset(
            (x, y) for y in range(self.height) for x in range(self.width) if self.terrain((x, y)) in MONSTER_WALKS
        )

    def face_down_left(self) -> int:
        return sum(row.count(FACE_DOWN) for row in self.rows)


def neighbours(cell: Cell) -> tuple[Cell, ...]:
    x, y = cell
    return ((x, y - 1), (x - 1, y), (x + 1, y), (x, y + 1))
