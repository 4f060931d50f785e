"""Refine: a second look at each die the finder found, to cut its face where it really is.

The finder sees a die at 16 px a side: its centre is good to about a twentieth of a side and it
cannot tell a die's size (one size a set; a die near the photo's edge or on a heap looks bigger or
smaller). A face cut a little off loses the edge of its print, and faces that differ only in a
small glyph inside a ring they all share are then told apart by chance. The refiner network
(bench/learn/train_refiner.py) looks at a window round the finder's guess, the die 23 px across, and
says where the top face's centre is, its size and turn, and how likely a die lies there (the reader
trusts it over the finder). The lean judge, the same network trained on Blender's rendered dice as
well, looks at each die where the refiner put it and says how likely it lies level, and where its
body shows beyond its top (the reader compares that across the photo's dice: a cocked die's is its
own).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import cv2
import numpy as np

from .embedding import cut_square, square_warp
from .finding import Spot, standardise  # the window as the finder's photo: zero mean, unit spread
from .networks import run

REFINER = "die-refiner.onnx"
# level or not, and where the body shows: the refiner's network trained on Blender's rendered dice as well
# (models/networks/README.md); its place, size, turn and die are not used (the faces are cut, and the sets
# enrolled, where the refiner puts them)
LEAN_JUDGE = "die-lean.onnx"


class View(NamedTuple):
    """What a network is shown round a die: a square ``sides`` die sides across, at ``px`` pixels."""

    sides: float
    px: int


# the refiner's: room for a guess a quarter of a side off, and the die's sides
REFINER_VIEW = View(1.75, 40)
LEAN_VIEW = View(1.75, 40)  # the lean judge's
LOOKS = 2  # looks a die gets: each from where the one before put it
QUARTER_BACK = np.array([[0.0, -1.0], [1.0, 0.0]])  # a point in a window turned a quarter, turned back


class Refined(NamedTuple):
    """A die's top face as the refiner sees it: centre (photo px), turn (degrees), side (px), how likely it is a
    level die, how likely a die at all, and where its body's centre shows from its top face's (photo px)."""

    centre: tuple[float, float]
    turn: float
    side: float
    level: float
    die: float
    body: tuple[float, float] = (0.0, 0.0)


def crop(
    gray: np.ndarray, centre: tuple[float, float], turn: float, side: float, view: View = REFINER_VIEW
) -> tuple[np.ndarray, Callable[[tuple[float, float]], tuple[float, float]]]:
    """The window ``view`` round a die guessed at ``centre``, ``turn`` and ``side``, and the map from photo
    coordinates to the window's."""
    warp = square_warp(centre, turn, view.sides * side, view.px)

    def to_window(point: tuple[float, float]) -> tuple[float, float]:
        x, y = warp @ np.array([point[0] - 0.5, point[1] - 0.5, 1.0]) + 0.5  # (pixel k's centre at k + 0.5)
        return float(x), float(y)

    return cut_square(gray, centre, turn, view.sides * side, view.px), to_window


def refine(gray: np.ndarray, spots: list[Spot], side: float) -> list[Refined]:
    """Each spot's die as the refiner sees it, looked at LOOKS times (each look from where the last put it); its
    level and body are the refiner's own until ``judge`` says them."""
    dice = [Refined(s.centre, s.turn, side, 1.0, 1.0) for s in spots]
    if not dice:
        return []
    for _ in range(LOOKS):
        dice = [_moved(d, row, REFINER_VIEW) for d, row in zip(dice, run(REFINER, _windows(gray, dice, REFINER_VIEW)))]
    return dice


def judge(gray: np.ndarray, dice: list[Refined]) -> list[Refined]:
    """``dice`` (refined) with the lean judge's level and body, judged in a window cut where the refiner put each
    (one cut where the finder guessed, a side too big or a fifth of a side off, showed the judge a cocked die's side
    as the mat round a level one)."""
    if not dice:
        return []
    return [_judged(d, row) for d, row in zip(dice, judge_lean(_windows(gray, dice, LEAN_VIEW)))]


def judge_lean(windows: np.ndarray) -> np.ndarray:
    """The lean judge's outputs for each window, the mean over its four quarter turns (each body turned back): a
    die's lean does not turn with its window, and four looks are steadier than one (docs/vision.md, session 35)."""
    views = run(LEAN_JUDGE, np.concatenate([np.rot90(windows, k, axes=(2, 3)) for k in range(4)]))
    views = views.reshape(4, len(windows), -1)
    for k in range(1, 4):  # a window turned k quarters shows a body at (x, y) at (y, -x) k times: undo it
        views[k, :, 6:8] = views[k, :, 6:8] @ np.linalg.matrix_power(QUARTER_BACK, k).T
    return views.mean(axis=0)


def _windows(gray: np.ndarray, dice: list[Refined], view: View) -> np.ndarray:
    """A network's input: each die's window ``view``, standardised, as a batch of one-channel images."""
    return standardise(np.stack([crop(gray, d.centre, d.turn, d.side, view)[0] for d in dice]))[:, None]


def _judged(die: Refined, row: np.ndarray) -> Refined:
    """``die`` as the lean judge's output ``row`` says: its level likelihood and body; its place, size and turn kept."""
    judged = _moved(die, row, LEAN_VIEW)
    return die._replace(level=judged.level, body=judged.body)


def _moved(die: Refined, row: np.ndarray, view: View) -> Refined:
    """``die`` moved as the output ``row`` of a network shown ``view`` says."""
    half = view.px / 2
    warp = square_warp(die.centre, die.turn, view.sides * die.side, view.px)
    back = cv2.invertAffineTransform(warp)
    x, y = back @ np.array([row[0] * half + half - 0.5, row[1] * half + half - 0.5, 1.0]) + 0.5
    side = die.side * float(np.exp(np.clip(row[2], -0.5, 0.5)))
    turn = (die.turn + 45 * float(np.clip(row[3], -1, 1))) % 90
    level, found = (1 / (1 + np.exp(-row[4:6]))).tolist()
    bx, by = back[:, :2] @ (row[6:8] * half)  # half windows, turned and scaled back to photo px
    return Refined((float(x), float(y)), turn, side, level, found, (float(bx), float(by)))
