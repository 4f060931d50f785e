"""Orthogonal distances: breadth-first search over the cells a piece may cross."""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Container, Iterable

from .grid import Cell


def distances(
    starts: Iterable[Cell], crossable: Container[Cell], limit: int | None = None, until: Collection[Cell] | None = None
) -> dict[Cell, int]:
    """Fewest orthogonal steps from any start to every cell reachable through crossable cells.

    ``limit`` stops at that many steps; ``until`` stops once every one of those
    cells has its distance (the rest of the map is then left out). The hot
    loop of a Stage turn: neighbours are written inline, ``crossable`` is a set.
    """
    wanted = set(until) if until is not None else None
    dist: dict[Cell, int] = {}
    frontier: deque[Cell] = deque()
    for cell in starts:
        if cell not in dist:
            dist[cell] = 0
            frontier.append(cell)
    if wanted is not None:
        wanted.difference_update(dist)
    while frontier:
        if wanted is not None and not wanted:
            break
        cell = frontier.popleft()
        step = dist[cell] + 1
        if limit is not None and step > limit:
            continue
        x, y = cell
        for nxt in ((x, y - 1), (x - 1, y), (x + 1, y), (x, y + 1)):
            if nxt in crossable and nxt not in dist:
                dist[nxt] = step
                frontier.append(nxt)
                if wanted is not None:
                    wanted.discard(nxt)
    return dist


def manhattan(a: Cell, b: Cell) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])
