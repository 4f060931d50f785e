"""How big the pieces are across a photo read as taken (graves in photo pixels, no board map), and the warp that
evens their size out.

A camera tilted over the board sees the near pieces bigger than the far ones (0.83-1.26 across a frame at 4-15
degrees), and one higher or lower than at enrollment sees them all smaller or bigger: the outlines then name a leg
an arm. The pieces whose type their shape tells (skull, ribs, pelvis) say how big a piece is at their place: their
size against their type's enrolled size is fitted as a plane over the photo, log(linear size) = a + b u + c v (u, v:
place across the photo's width and height, -0.5 to 0.5). Where the plane says the photo is tilted or taken from
another height, the photo is warped by the homography whose local scale undoes it (a tilted plane's image differs
from a straight one by such a homography), and read there.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

MIN_SURE = 4  # sure pieces a photo needs for a plane (3 unknowns, and one to spare) ...
MIN_LEVEL = 2  # ... and, with fewer, for one size over the whole photo (their median)
OUTLIER = 2.5  # pieces off the first fit by more than this many times its median miss are left out of the second
MIN_MISS = 0.02  # (a miss this small is as good as none: the same design enrolled and seen)
# a photo is warped where its pieces are this much smaller or bigger than enrolled (log linear size: 8 %; camera
# straight down and at the enrollment's height, the committed and fresh boards measured 0.07 at most) ...
OTHER_HEIGHT = 0.08
# ... or change size across it this much (log linear size over the photo's width or height: straight down 0.15 at
# most, the pieces' designs differ in size; tilted 4-15 degrees up to 0.4)
TILTED = 0.2
MAX_FIELD = 0.7  # a plane steeper or further off than this is a misfit (a 2x change in size), not a camera


@dataclass(frozen=True)
class SizeField:
    """log(linear size / enrolled size) = a + b u + c v over a photo ``width`` x ``height``."""

    a: float
    b: float
    c: float
    width: int
    height: int

    @classmethod
    def fit(
        cls, places: list[tuple[float, float]], log_sizes: list[float], width: int, height: int
    ) -> SizeField | None:
        """The plane through the pieces' sizes at their places (photo px), fitted twice, the second time without the
        pieces far off the first; with fewer than MIN_SURE pieces their median size, level; with fewer than MIN_LEVEL,
        None."""
        if len(places) < MIN_SURE:
            return cls(float(np.median(log_sizes)), 0.0, 0.0, width, height) if len(places) >= MIN_LEVEL else None
        x = np.array([[1.0, px / width - 0.5, py / height - 0.5] for px, py in places])
        y = np.asarray(log_sizes, np.float64)
        coef = np.linalg.lstsq(x, y, rcond=None)[0]
        miss = np.abs(y - x @ coef)
        kept = miss <= OUTLIER * max(float(np.median(miss)), MIN_MISS)
        if kept.sum() >= MIN_SURE:
            coef = np.linalg.lstsq(x[kept], y[kept], rcond=None)[0]
        a, b, c = (float(v) for v in coef)
        return cls(a, b, c, width, height)

    @property
    def uneven(self) -> bool:
        """Whether the photo's pieces are sized other than enrolled (camera tilted or at another height), within
        what a camera could do."""
        off = abs(self.a) >= OTHER_HEIGHT or np.hypot(self.b, self.c) >= TILTED
        return bool(off and max(abs(self.a), abs(self.b), abs(self.c)) <= MAX_FIELD)

    def evening(self) -> tuple[np.ndarray, tuple[int, int]]:
        """The homography from the photo to a canvas where every piece has its enrolled size, and that canvas's size.
        Its local linear scale is e^-a / w^1.5 with w = 1 + (2/3)(b u + c v): about e^-(a + b u + c v)."""
        w, h = self.width, self.height
        centred = np.array([[1, 0, -w / 2], [0, 1, -h / 2], [0, 0, 1]], np.float64)
        tilt = np.array([[1, 0, 0], [0, 1, 0], [2 / 3 * self.b / w, 2 / 3 * self.c / h, 1]], np.float64)
        size = np.diag([np.exp(-self.a), np.exp(-self.a), 1.0])
        warp = np.linalg.inv(centred) @ size @ tilt @ centred
        corners = cv2.perspectiveTransform(np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float64), warp)[0]
        low, high = corners.min(axis=0), corners.max(axis=0)
        warp = np.array([[1, 0, -low[0]], [0, 1, -low[1]], [0, 0, 1]], np.float64) @ warp
        return warp, (int(np.ceil(high[0] - low[0])), int(np.ceil(high[1] - low[1])))


def moved(points: np.ndarray, warp: np.ndarray) -> np.ndarray:
    """Points (n, 2) taken through a homography."""
    return cv2.perspectiveTransform(np.asarray(points, np.float64).reshape(1, -1, 2), warp)[0]
