"""Orthogonal distances: breadth-first search over the cells a piece may cross."""

from __future__ import annotations

from collections import deque
from typing import Callable, Iterable

from .grid import Cell, neighbours


def distances(starts: Iterable[Cell], can_cross: Callable[[Cell], bool], limit: int | None = None) -> dict[Cell, int]:
    """Fewest orthogonal steps from any start to every cell reachable through crossable cells."""
    dist: dict[Cell, int] = {}
    frontier: deque[Cell] = deque()
    for cell in starts:
        if cell not in dist:
            dist[cell] = 0
            frontier.append(cell)
    while frontier:
        cell = frontier.popleft()
        step = dist[cell] + 1
        if limit is not None and step > limit:
            continue
        for nxt in neighbours(cell):
            if nxt not in dist and can_cross(nxt):
                dist[nxt] = step
                frontier.append(nxt)
    return dist


def manhattan(a: Cell, b: Cell) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])
