"""The graveyard: tombstones 1-50 on a 5x10 grid, and the areas a light asks about (rules/ghosts-in-the-graveyard.md)."""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import BadInput

ROWS, COLUMNS = 5, 10
TOMBSTONES = range(1, ROWS * COLUMNS + 1)
DIRECTIONS = ("N", "E", "S", "W")

# The rules' one example of a Personal Flashlight: placed over 48 it asks 28, 29, 30, 38 and 39
# (48 itself is under it too, but it was just crossed so it can be no one's secret).
LANTERN: tuple[tuple[int, int], ...] = ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (2, 0))
MOST_CELLS = 12  # a flashlight is a small card: a 5x5 editor grid, at most a dozen open squares
MOST_SPAN = 5


def tombstone(text: object) -> int:
    """A tombstone number from JSON or a form, or a one-line error."""
    if isinstance(text, bool) or not isinstance(text, int) or text not in TOMBSTONES:
        raise BadInput(f"a tombstone is a whole number 1-50, not {text!r}")
    return text


def cell(number: int) -> tuple[int, int]:
    return (number - 1) // COLUMNS, (number - 1) % COLUMNS


def number_at(row: int, column: int) -> int | None:
    if 0 <= row < ROWS and 0 <= column < COLUMNS:
        return row * COLUMNS + column + 1
    return None


def flood(over: int, direction: str) -> frozenset[int]:
    """Every tombstone in the whole rows or columns beyond `over` in one compass direction."""
    if direction not in DIRECTIONS:
        raise BadInput(f"the Flood Light points N, E, S or W, not {direction!r}")
    row, column = cell(over)
    keep = {
        "N": lambda r, c: r < row,
        "S": lambda r, c: r > row,
        "W": lambda r, c: c < column,
        "E": lambda r, c: c > column,
    }[direction]
    return frozenset(n for n in TOMBSTONES if keep(*cell(n)))


@dataclass(frozen=True)
class Flashlight:
    """A Personal Flashlight: its open squares as [row, column] offsets, turned but never mirrored."""

    name: str
    cells: tuple[tuple[int, int], ...]

    @classmethod
    def from_json(cls, name: str, data: object) -> Flashlight:
        if not isinstance(data, list) or not data:
            raise BadInput(f"flashlight {name!r}: a list of open squares [row, column]")
        cells: set[tuple[int, int]] = set()
        for item in data:
            if (
                not isinstance(item, list)
                or len(item) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in item)
            ):
                raise BadInput(f"flashlight {name!r}: each open square is [row, column], not {item!r}")
            cells.add((item[0], item[1]))
        if len(cells) > MOST_CELLS:
            raise BadInput(f"flashlight {name!r}: at most {MOST_CELLS} open squares, not {len(cells)}")
        rows = [r for r, _ in cells]
        columns = [c for _, c in cells]
        if max(rows) - min(rows) >= MOST_SPAN or max(columns) - min(columns) >= MOST_SPAN:
            raise BadInput(f"flashlight {name!r}: its open squares fit in {MOST_SPAN}x{MOST_SPAN}")
        return cls(name, _normalised(cells))

    def to_json(self) -> list[list[int]]:
        return [list(c) for c in self.cells]

    def turns(self) -> list[tuple[tuple[int, int], ...]]:
        """The shape at 0, 90, 180 and 270 degrees clockwise (a symmetric shape gives fewer)."""
        seen: list[tuple[tuple[int, int], ...]] = []
        shape = self.cells
        for _ in range(4):
            if shape not in seen:
                seen.append(shape)
            shape = _normalised({(c, -r) for r, c in shape})  # a quarter turn clockwise
        return seen

    def placements(self, over: int) -> list[Placement]:
        """Every way to lay it with an open square on `over`: each turn, each square on it."""
        row, column = cell(over)
        found: dict[frozenset[int], Placement] = {}
        for turn, shape in enumerate(self.turns()):
            for dr, dc in shape:
                area = frozenset(n for r, c in shape if (n := number_at(row - dr + r, column - dc + c)) is not None)
                origin = (row - dr, column - dc)
                found.setdefault(area, Placement(self.name, turn, origin, area))
        return sorted(found.values(), key=lambda p: (p.turn, p.origin))


@dataclass(frozen=True)
class Placement:
    light: str
    turn: int  # quarter turns clockwise
    origin: tuple[int, int]  # board row and column of the shape's [0, 0]
    area: frozenset[int]

    def to_json(self) -> dict[str, object]:
        return {"light": self.light, "turn": self.turn, "origin": list(self.origin), "asked": sorted(self.area)}


def _normalised(cells: set[tuple[int, int]] | tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return tuple(sorted((r - top, c - left) for r, c in cells))
