"""The chance to win a two-player race to the target, as in optimal Pig play.

``W[a, b]`` is the chance that the player about to take a turn with ``a`` points
wins against an opponent on ``b``, when every later turn scores like
``TURN_POINTS`` (the spread of points per turn of the expected-points advisor,
measured by ``bench/advisor.py --write-spread``). It is the fixed point of

    W[a, b] = sum_p P(p) * (1 if a + p >= target else 1 - W[b, a + p])

The advisor then plays *this* turn to maximise the chance to win with
``win_utility``: a documented approximation (later turns assume expected-points
play, and with more than two players the leading opponent stands for all).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import numpy as np

from .turn_points import TURN_POINTS

FLOOR = -100  # scores below this count as this (a skeleton rarely scores below -20)


@lru_cache(maxsize=8)
def win_table(target: int) -> np.ndarray:
    """W as an array indexed [a - FLOOR, b - FLOOR] for scores FLOOR .. target - 1."""
    size = target - FLOOR
    points = np.array(sorted(TURN_POINTS), dtype=int)
    chance = np.array([TURN_POINTS[p] for p in points], dtype=float)
    chance /= chance.sum()
    # One turn as a matrix: step[a, x] = P(a turn takes a to x), won[a] = P(it reaches the target).
    scores = np.arange(size)
    step, won = np.zeros((size, size)), np.zeros(size)
    for p, q in zip(points, chance):
        after = scores + p
        inside = after < size
        np.add.at(step, (scores[inside], np.clip(after[inside], 0, None)), q)
        won[~inside] += q
    w = np.full((size, size), 0.5)
    for _ in range(5000):
        new = step @ (1.0 - w.T) + won[:, None]  # [a, b]: then they move with b against my new score
        if np.max(np.abs(new - w)) < 1e-9:
            return new
        w = new
    return w


def chance_to_win(me: int, other: int, target: int) -> float:
    """The chance the player about to move with ``me`` points beats ``other`` (both below target)."""
    if me >= target:
        return 1.0
    if other >= target:
        return 0.0
    w = win_table(target)
    return float(w[max(me, FLOOR) - FLOOR, max(other, FLOOR) - FLOOR])


def win_utility(me: int, other: int, target: int) -> Callable[[int], float]:
    """Utility of ending this turn with ``points``: the chance to win from there (they move next)."""

    def utility(points: int) -> float:
        after = me + points
        return 1.0 if after >= target else 1.0 - chance_to_win(other, after, target)

    return utility
