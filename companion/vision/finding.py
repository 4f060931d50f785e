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
    """What the finder is fed: zero mean, unit spread over the whole photo (any exposure); a stack of windows,
    each window over itself."""
    photo = photo.astype(np.float32)
    return (photo - photo.mean(axis=(-2, -1), keepdims=True)) / (photo.std(axis=(-2, -1), keepdims=True) + 1.0)


def find_spots(gray: np.ndarray, die_side: float, floor: float = LEVEL_PEAK) -> list[Spot]:
    """The dice in a grey photo whose dice's top faces are ``die_side`` px across, likeliest first; ``floor``: the
    least likelihood reported (enrollment, knowing a die is there, looks lower)."""
    spots = []
    for peak in heat_peaks(FINDER, gray, FINDER_SIDE / die_side, heats=2, floor=floor, interpolation=cv2.INTER_AREA):
        level, cocked = peak.heat
        turn = float(np.degrees(np.arctan2(peak.rest[1], peak.rest[0])) / 4) % 90
        spots.append(Spot(peak.centre, turn, float(peak.heat.max()), not (cocked >= COCKED_PEAK and cocked > level)))
    return sorted(spots, key=lambda s: -s.likelihood)


class Peak(NamedTuple):
    """A peak of a finder's heat maps: its centre (px of the image given), every heat map's likelihood there, and
    the network's channels after the heats and the centre's offset (the dice finder's turn)."""

    centre: tuple[float, float]
    heat: np.ndarray
    rest: np.ndarray


def heat_peaks(
    network: str, gray: np.ndarray, scale: float, heats: int, floor: float, interpolation: int
) -> list[Peak]:
    """The peaks at least ``floor`` likely of a CenterNet-like finder (dice and pieces): ``gray`` resized by
    ``scale`` to the size it learned, per STRIDE px cell ``heats`` heat maps then the centre's offset in its cell."""
    small = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=interpolation)
    h, w = small.shape
    padded = cv2.copyMakeBorder(small, 0, -h % STRIDE, 0, -w % STRIDE, cv2.BORDER_REPLICATE)
    maps = run(network, standardise(padded)[None, None])[0]
    heat = 1 / (1 + np.exp(-maps[:heats]))
    strongest = heat.max(axis=0)
    peaks = []
    for i, j in zip(
        *np.nonzero((strongest == cv2.dilate(strongest, np.ones((3, 3), np.uint8))) & (strongest >= floor))
    ):
        x = (j + 0.5 + maps[heats, i, j]) * STRIDE / scale
        y = (i + 0.5 + maps[heats + 1, i, j]) * STRIDE / scale
        if x < w / scale and y < h / scale:
            peaks.append(Peak((float(x), float(y)), heat[:, i, j].copy(), maps[heats + 2 :, i, j].copy()))
    return peaks
