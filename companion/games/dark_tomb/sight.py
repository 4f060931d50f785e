"""Line of sight, exactly: centre to centre, blocked by any touch of a blocking cell but its corners.

Coordinates are doubled so every centre is an odd integer pair and every cell
edge an even one; the clip below then runs on exact fractions. A segment that
meets a closed square in one point only meets it at a corner (a segment
through centres cannot end on a cell's edge), so "blocked" is exactly "the
segment runs inside the closed square for a positive length".
"""

from __future__ import annotations

from fractions import Fraction

from .grid import Cell, Grid


def _runs_inside(p: tuple[int, int], d: tuple[int, int], lo: tuple[int, int], hi: tuple[int, int]) -> bool:
    """Liang-Barsky: does p + t*d, t in [0, 1], stay in the box [lo, hi] for a positive length of t?"""
    t0, t1 = Fraction(0), Fraction(1)
    for axis in (0, 1):
        if d[axis] == 0:
            if not lo[axis] <= p[axis] <= hi[axis]:
                return False
            continue
        a = Fraction(lo[axis] - p[axis], d[axis])
        b = Fraction(hi[axis] - p[axis], d[axis])
        if a > b:
            a, b = b, a
        t0, t1 = max(t0, a), min(t1, b)
        if t0 >= t1:
            return False
    return True


def line_of_sight(grid: Grid, a: Cell, b: Cell) -> bool:
    """True when nothing blocks the segment from the centre of ``a`` to the centre of ``b``."""
    p = (2 * a[0] + 1, 2 * a[1] + 1)
    d = (2 * (b[0] - a[0]), 2 * (b[1] - a[1]))
    x_lo, x_hi = min(a[0], b[0]), max(a[0], b[0])
    y_lo, y_hi = min(a[1], b[1]), max(a[1], b[1])
    for y in range(y_lo, y_hi + 1):
        for x in range(x_lo, x_hi + 1):
            if grid.blocks_sight((x, y)) and _runs_inside(p, d, (2 * x, 2 * y), (2 * x + 2, 2 * y + 2)):
                return False
    return True
