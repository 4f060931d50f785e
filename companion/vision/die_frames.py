"""Where the one die of each face-folder enrollment photo lies, when the photos are the table camera's whole frames.

A whole frame shows far more than its die: the mat's markers and printed border, the table round the mat (a
gingham or a busy print, die-sized squares and squiggles). Two things tell the die from them:

- one fixed camera: every frame shows the same mat and table, each its die somewhere else, so the mat behind them
  is their median, and a frame's die is where the frame differs from it;
- the mat's four corner markers (ids 0-3): the die lies on the mat, not on a marker nor off the mat.

Photos cut round their die already (as the bench's sets are) are left as they are.
"""

from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy as np

from .board import mat_outline, paint_marker_over

MIN_FRAMES = 5  # photos of one size, this many or more, may be one fixed camera's frames (the median is bare mat)
MIN_FRAME = 480  # px: a photo with a shorter short side is one cut round its die already (the bench's: 320)
WORK_WIDTH = 640  # px: frames are compared this wide (a die ~12 px across: where it lies, not its print)
CHANGED = 20  # grey levels off the mat behind, the exposure evened out, at a white of WHITE: where a frame's die lies
WHITE = 250  # the frames' white (their bare mat's 99.9th percentile) at which CHANGED holds; a dim room's is lower
NOISE = 5  # a change is this many times the frame's noise at least (its difference's robust spread), to CHANGED
SPECK = 4  # working px: a change smaller than this is noise or JPEG, not a die's print
MOST_CHANGED = 0.02  # of a frame: more change than this is no lone die (the camera or the lamp moved)
SECOND = 0.3  # a second change this big (of the first's area) ...
APART = 2.0  # ... this many times the first's extent away is a second die (or a hand): the frame is left to the finder
REACH = 1.0  # the die's top-face centre lies within this many times the change's extent of the change's centre
SIDE_OF_CHANGE = (0.5, 2.0)  # a die's side to its change's extent: its body and shadow (0.67) to part of its print (2)
LARGEST = 0.25  # of a frame's short side: a change further across is no die


class Where(NamedTuple):
    """An enrollment photo as it is to be looked in: grey, painted over where no die lies (off the mat);
    ``place``: the die's top-face centre lies within ``reach`` px of it (None: anywhere; REACH times ``extent``, how
    far the frame's change reaches, px: its print, or its body and shadow; 0: not known); ``no_die``: the frame is the bare
    mat, its die rolled out of view. The finder looks at the whole frame, as it will when reading: it is fed the
    photo standardised as a whole, and a die on white paper cut out alone stood out far more than any it learned."""

    gray: np.ndarray
    place: tuple[float, float] | None = None
    extent: float = 0.0
    no_die: bool = False

    @property
    def reach(self) -> float:
        return REACH * self.extent


class MatBehind(NamedTuple):
    """The bare mat and table behind one fixed camera's frames (their median at the working width), its median level
    and its white (99.9th percentile): measured once, each frame compared with them."""

    gray: np.ndarray
    level: float
    white: float


def where_dice_lie(grays: list[np.ndarray]) -> list[Where]:
    """Each photo as it is to be looked in for its one die: where it differs from the other frames of one fixed
    camera, else with everything off the mat (its markers seen) painted over, else as it is."""
    behind = _mats_behind(grays)
    out = []
    for gray in grays:
        where = _where_it_changed(gray, behind[gray.shape]) if gray.shape in behind else None
        out.append(where or on_the_mat(gray))
    return out


def die_sides(looked_in: list[Where], sides: tuple[float, ...]) -> tuple[float, ...]:
    """Of ``sides`` (px), those a die may have whose frames changed as far as they did (their median extent): its
    print alone (a dark die on a dark mat) to its body and shadow. All of them if no frame's change is known."""
    extents = [where.extent for where in looked_in if where.extent]
    if not extents:
        return sides
    extent = float(np.median(extents))
    return tuple(s for s in sides if SIDE_OF_CHANGE[0] * extent <= s <= SIDE_OF_CHANGE[1] * extent) or sides


def _mats_behind(grays: list[np.ndarray]) -> dict[tuple[int, ...], MatBehind]:
    """Per photo size held by MIN_FRAMES photos or more, their median at the working width: the bare mat and table,
    if they are one fixed camera's frames, each die somewhere else."""
    by_shape: dict[tuple[int, ...], list[np.ndarray]] = {}
    for gray in grays:
        by_shape.setdefault(gray.shape, []).append(gray)
    out = {}
    for shape, frames in by_shape.items():
        if len(frames) >= MIN_FRAMES and min(shape) >= MIN_FRAME:
            median = np.median(np.stack([_small(g) for g in frames]), axis=0).astype(np.float32)
            out[shape] = MatBehind(median, float(np.median(median)), float(np.percentile(median, 99.9)))
    return out


def _small(gray: np.ndarray) -> np.ndarray:
    scale = min(1.0, WORK_WIDTH / gray.shape[1])
    return cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA).astype(np.float32)


def _where_it_changed(gray: np.ndarray, behind: MatBehind) -> Where | None:
    """Where the frame differs from the mat behind it, if that is one die-like place; the bare mat if it differs
    nowhere; None if the frames are not one camera's (it differs all over) or it changed in two places (two dice:
    the finder will say so)."""
    small = _small(gray)
    gain = behind.level / max(1.0, float(np.median(small)))  # a camera's exposure moves frame to frame
    off = np.abs(small * gain - behind.gray)
    # a die differs from its mat less in a dim photo (by its exposure), but more than the sensor's noise; never more
    # than CHANGED (a camera that moved differs all over: that is for MOST_CHANGED to tell)
    bar = min(CHANGED, max(CHANGED * behind.white / WHITE, NOISE * 1.4826 * float(np.median(off))))
    changed = (off >= bar).astype(np.uint8)
    if changed.sum() > MOST_CHANGED * changed.size:
        return None
    # a die's print is strokes: joined over a gap of a stroke or two, specks dropped
    joined = cv2.morphologyEx(changed, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(joined)
    places = [stats[i] for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= SPECK]
    if not places:
        return Where(gray, no_die=True)
    places.sort(key=lambda st: -st[cv2.CC_STAT_AREA])
    x, y, w, h, area = places[0]
    extent = max(w, h)
    for other in places[1:]:
        ox, oy, ow, oh, other_area = other
        apart = np.hypot(ox + ow / 2 - x - w / 2, oy + oh / 2 - y - h / 2)
        if other_area >= SECOND * area and apart > APART * extent:
            return None
    to_photo = gray.shape[1] / small.shape[1]
    if extent > LARGEST * min(small.shape):
        return None
    centre = ((x + w / 2) * to_photo, (y + h / 2) * to_photo)
    return Where(gray, centre, extent * to_photo)


def on_the_mat(gray: np.ndarray) -> Where:
    """A photo with its mat's markers seen: the markers, and all off the mat, painted over in the mat's colour (a die
    lies on the mat; a marker, a table's print or its edge is as like a die as anything)."""
    mat = mat_outline(gray)
    if mat is None:
        return Where(gray)
    edge = np.zeros(gray.shape, np.uint8)
    cv2.fillPoly(edge, [np.round(mat.edge).astype(np.int32)], 255)
    give = int(round(mat.give))  # (placed by fewer than four markers)
    on_mat = cv2.dilate(edge, np.ones((2 * give + 1, 2 * give + 1), np.uint8)) if give else edge
    painted = gray.copy()
    painted[on_mat == 0] = int(np.median(gray[on_mat > 0]))
    for corners in mat.markers:
        paint_marker_over(painted, corners)
    return Where(painted)
