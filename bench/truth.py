"""Ground-truth measures shared by the bench scripts and the tests (importing this sets nothing up)."""

from __future__ import annotations

import cv2
import numpy as np


def at_true_top_faces(reader, image: np.ndarray, truth: list[dict]) -> tuple[int, int, int]:
    """The dice classifier alone, shown each level die's true top face (centre and turn from the ground truth,
    the photo's die size as the reader measures it): level dice, named right clearing the bars, and named
    wrong though clearing them. What enrollment and the classifier allow; the rest of the gap to "read
    right" is finding the dice."""
    from companion.vision.blobs import Blob, find_blobs
    from companion.vision.dice import MIN_MARGIN, MIN_SCORE

    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    side = reader._crop_side(gray, find_blobs(image, reader.die_side)[0])
    level = right = wrong = 0
    for die in (d for d in truth if not d["cocked"]):
        turn = true_turn(die)
        face, score, _, margin, _, _ = reader._classify_near(
            gray, Blob(tuple(die["center"]), (side, side), turn, 0, False), side
        )
        clear = score >= MIN_SCORE and margin >= MIN_MARGIN
        level += 1
        right += clear and face == die["face"]
        wrong += clear and face != die["face"]
    return level, right, wrong


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
