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

import numpy as np

from .embedding import square_warp, warped
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
# a die two looks find this likely level, or cocked, gets no more: on the 14 bench sets every photo read the same,
# die by die and flag by flag, as with four looks for all; 4-8 ms a photo less
SURE_LEVEL = 0.9


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

    return warped(gray, warp, view.px), to_window


def refine(gray: np.ndarray, spots: list[Spot], side: float) -> list[Refined]:
    """Each spot's die as the refiner sees it, looked at LOOKS times (each look from where the last put it); its
    level and body are the refiner's own until ``judge`` says them."""
    dice = [Refined(s.centre, s.turn, side, 1.0, 1.0) for s in spots]
    if not dice:
        return []
    for _ in range(LOOKS):
        dice = _moved(dice, run(REFINER, _windows(gray, dice, REFINER_VIEW)), REFINER_VIEW)
    return dice


def judge(gray: np.ndarray, dice: list[Refined], least_side: float = 0.0) -> list[Refined]:
    """``dice`` (refined) with the lean judge's level and body, judged in a window cut where the refiner put each
    (one cut where the finder guessed, a side too big or a fifth of a side off, showed the judge a cocked die's side
    as the mat round a level one), as if each were at least ``least_side`` px (a cocked die the refiner sized small
    showed the judge a strip of its side only)."""
    if not dice:
        return []
    cut = [die._replace(side=max(die.side, least_side)) for die in dice]
    judged = _moved(cut, judge_lean(_windows(gray, cut, LEAN_VIEW)), LEAN_VIEW)
    return [die._replace(level=j.level, body=j.body) for die, j in zip(dice, judged)]  # place, size, turn kept


def judge_lean(windows: np.ndarray) -> np.ndarray:
    """The lean judge's outputs for each window, the mean over its four quarter turns (each body turned back): a
    die's lean does not turn with its window, and four looks are steadier than one (docs/vision.md, session 35).
    A die the first two looks (half a turn apart) find SURE_LEVEL level or cocked is not looked at the other two
    ways: it is said by those two."""
    looks = _judged(windows, (0, 2))
    said = looks.mean(axis=0)
    level = 1 / (1 + np.exp(-said[:, 4]))
    unsure = np.nonzero((level > 1 - SURE_LEVEL) & (level < SURE_LEVEL))[0]
    if len(unsure):
        said[unsure] = np.concatenate([looks[:, unsure], _judged(windows[unsure], (1, 3))]).mean(axis=0)
    return said


def _judged(windows: np.ndarray, turns: tuple[int, ...]) -> np.ndarray:
    """The lean judge's outputs for the windows turned by each of ``turns`` quarter turns, each body turned back:
    (turns, windows, outputs)."""
    views = run(LEAN_JUDGE, np.concatenate([np.rot90(windows, k, axes=(2, 3)) for k in turns]))
    views = views.reshape(len(turns), len(windows), -1)
    for i, k in enumerate(turns):  # a window turned k quarters shows a body at (x, y) at (y, -x) k times: undo it
        views[i, :, 6:8] = views[i, :, 6:8] @ np.linalg.matrix_power(QUARTER_BACK, k).T
    return views


def _windows(gray: np.ndarray, dice: list[Refined], view: View) -> np.ndarray:
    """A network's input: each die's window ``view``, standardised, as a batch of one-channel images."""
    return standardise(np.stack([crop(gray, d.centre, d.turn, d.side, view)[0] for d in dice]))[:, None]


def _moved(dice: list[Refined], rows: np.ndarray, view: View) -> list[Refined]:
    """Each die moved as its row of the output of a network shown ``view`` says (places in half windows, turned
    and scaled back to the photo: the inverse of ``crop``'s map)."""
    rows = np.asarray(rows, np.float64)
    centres = np.array([d.centre for d in dice], np.float64)
    turns = np.array([d.turn for d in dice], np.float64)
    sides = np.array([d.side for d in dice], np.float64)
    reach = view.sides * sides / 2  # photo px a half window
    cos, sin = np.cos(np.radians(turns)), np.sin(np.radians(turns))

    def back(v: np.ndarray) -> np.ndarray:
        return np.stack([cos * v[:, 0] - sin * v[:, 1], sin * v[:, 0] + cos * v[:, 1]], axis=1) * reach[:, None]

    places = (centres + back(rows[:, 0:2])).tolist()
    bodies = back(rows[:, 6:8]).tolist()
    new_sides = (sides * np.exp(np.clip(rows[:, 2], -0.5, 0.5))).tolist()
    new_turns = ((turns + 45 * np.clip(rows[:, 3], -1, 1)) % 90).tolist()
    level, found = (1 / (1 + np.exp(-rows[:, 4:6]))).T.tolist()
    return [
        Refined(tuple(place), turn, side, lv, fd, tuple(body))
        for place, turn, side, lv, fd, body in zip(places, new_turns, new_sides, level, found, bodies)
    ]
