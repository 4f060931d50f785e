"""Ground-truth measures shared by the bench scripts and the tests (importing this sets nothing up)."""

from __future__ import annotations

import numpy as np


def true_side(die: dict) -> float:
    """A die's top-face side in px: the mean of its four edges in the ground truth."""
    corners = np.array(die["corners"], float)
    return float(np.mean(np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)))


def true_turn(die: dict) -> float:
    """A die's top-face turn in degrees: its first edge's direction in the ground truth."""
    edge = np.subtract(die["corners"][1], die["corners"][0])
    return float(np.degrees(np.arctan2(edge[1], edge[0])))


def on_die(point, die: dict) -> bool:
    """Whether a flag at ``point`` marks ``die``: it lies within one top-face side of the top face's centre, on
    the die's body (a cocked die's body reaches that far from its top face; its flag goes where it shows most)."""
    side = float(np.hypot(*np.subtract(die["corners"][1], die["corners"][0])))
    return bool(np.hypot(point[0] - die["center"][0], point[1] - die["center"][1]) < side)
