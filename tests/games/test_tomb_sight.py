"""Line of sight: centre to centre, any touch of a wall blocks, a corner alone does not."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.dark_tomb import Grid, line_of_sight


def grid(rows: str) -> Grid:
    return Grid.parse([r.strip() for r in rows.strip().splitlines()])


OPEN = grid("""
.......
.......
.......
.......
""")


@pytest.mark.parametrize(
    "rows, a, b, clear",
    [
        # straight along a row next to a wall row: the segment runs at the centre height, no contact
        ("......\n######", (0, 0), (5, 0), True),
        # a wall on the way
        ("..#...", (0, 0), (5, 0), False),
        # diagonal through a single wall corner: touches only the corner point
        ("..\n#.", (0, 0), (1, 1), True),
        # the 45-degree gap between two diagonal walls
        (".#\n#.", (0, 0), (1, 1), True),
        # grazing a wall's edge: from (0,0) to (2,1) the segment crosses the wall at (1,1)'s top edge... inside
        ("...\n.#.", (0, 0), (2, 1), False),
        # shallow line from (0,0) to (4,1): passes x=2 at y=1.0 exactly (the edge between rows), touching (2,1)'s edge
        (".....\n..#..", (0, 0), (4, 1), False),
        (".....\n..#..", (0, 1), (4, 0), False),
        # the same shallow line with the wall one further: (3,1) is met at its top edge for a positive length
        (".....\n...#.", (0, 0), (4, 1), False),
        # a long shallow line that clears a wall below it: 0..8 in x, 0..1 in y; (1,1) lies below the segment's start
        (".........\n.#.......", (0, 0), (8, 1), True),
        # obstacles and water never block sight
        ("..O~..", (0, 0), (5, 0), True),
        # a closed gate blocks, an open gate does not
        ("..G...", (0, 0), (5, 0), False),
        ("..g...", (0, 0), (5, 0), True),
        # face-down tiles block, and so does outside the map
        ("..?...", (0, 0), (5, 0), False),
        # a 2:1 line through a corner point shared by two walls it only touches at corners
        ("...\n...\n...", (0, 0), (2, 2), True),
        (".#.\n...\n...", (0, 0), (2, 2), True),
        ("...\n.#.\n...", (0, 0), (2, 2), False),
    ],
)
def test_line_of_sight(rows, a, b, clear):
    g = grid(rows)
    assert line_of_sight(g, a, b) is clear
    assert line_of_sight(g, b, a) is clear


def test_knight_move_past_a_corner_touches_the_edge():
    # (0,0)->(1,2): the segment x = 0.5 + t, y = 0.5 + 2t passes x=1 at y=1.5, inside cell (1,1)? no: at x=1 it is on
    # the boundary between columns 0 and 1 at y=1.5, the middle of (1,1)'s left edge: a wall there blocks.
    assert not line_of_sight(grid("..\n.#\n.."), (0, 0), (1, 2))
    assert line_of_sight(grid("..\n..\n#."), (0, 0), (1, 2))


cells = st.tuples(st.integers(0, 6), st.integers(0, 4))
walls = st.sets(cells, max_size=10)


@given(walls, cells, cells)
def test_sight_is_symmetric(wall_cells, a, b):
    rows = ["".join("#" if (x, y) in wall_cells - {a, b} else "." for x in range(7)) for y in range(5)]
    g = Grid.parse(rows)
    assert line_of_sight(g, a, b) == line_of_sight(g, b, a)


@given(cells, cells)
def test_sight_is_clear_on_an_open_floor(a, b):
    assert line_of_sight(OPEN, (a[0], a[1] % 4), (b[0], b[1] % 4))
