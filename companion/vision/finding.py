"""Find: where dice lie in a photo, by the finder network (bench/learn/train_finder.py).

The photo is shrunk so a die's top face is FINDER_SIDE px across (the size the finder learned), and
the finder says, for every 4x4 px cell of it, how likely a level die's top-face centre lies there, how
likely a cocked die's, the centre's place in the cell, and the die's turn. Peaks are dice.
"""

from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy as np

from .networks import run

FINDER = "dice-finder.onnx"
FINDER_SIDE = 16.0  # px: the top face's side at the finder's working scale (as trained)
STRIDE = 4  # working px per output cell
LEVEL_PEAK = 0.3  # a die's peak at least this likely: a die (lower peaks are not reported)
ENROLL_PEAK = 0.1  # an enrollment photo's die, known to be there, may be seen this faintly
COCKED_PEAK = 0.4  # a cocked die's peak at least this likely, and above the level peak there: a cocked die


class Spot(NamedTuple):
    """A die the finder saw: its top face's centre (photo px), turn (degrees, 0-90) and how sure it is."""

    centre: tuple[float, float]
    turn: float
    likelihood: float
    level: bool


def standardise(photo: np.ndarray) -> np.ndarray:
    """What the finder is fed: zero mean, unit spread over the whole photo (any exposure)."""
    photo = photo.astype(np.float32)
    return (photo - photo.mean()) / (photo.std() + 1.0)


def find_spots(gray: np.ndarray, die_side: float, floor: float = LEVEL_PEAK) -> list[Spot]:
    """The dice in a grey photo whose dice's top faces are ``die_side`` px across, likeliest first; ``floor``: the
    least likelihood reported (enrollment, knowing a die is there, looks lower)."""
    scale = FINDER_SIDE / die_side
    small = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    h, w = small.shape
    padded = cv2.copyMakeBorder(small, 0, -h % STRIDE, 0, -w % STRIDE, cv2.BORDER_REPLICATE)
    maps = run(FINDER, standardise(padded)[None, None])[0]
    heat = 1 / (1 + np.exp(-maps[:2]))
    strongest = np.maximum(heat[0], heat[1])
    peaks = (strongest == cv2.dilate(strongest, np.ones((3, 3), np.uint8))) & (strongest >= floor)
    spots = []
    for i, j in zip(*np.nonzero(peaks)):
        level = not (heat[1, i, j] >= COCKED_PEAK and heat[1, i, j] > heat[0, i, j])
        x = (j + 0.5 + maps[2, i, j]) * STRIDE / scale
        y = (i + 0.5 + maps[3, i, j]) * STRIDE / scale
        turn = float(np.degrees(np.arctan2(maps[5, i, j], maps[4, i, j])) / 4) % 90
        if x < w / scale and y < h / scale:
            spots.append(Spot((float(x), float(y)), turn, float(strongest[i, j]), level))
    return sorted(spots, key=lambda s: -s.likelihood)
