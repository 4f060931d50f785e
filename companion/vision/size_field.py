"""How big the pieces are across a photo read as taken (graves in photo pixels, no board map), and the warp that
evens their size out.

A camera tilted over the board sees the near pieces bigger than the far ones (0.83-1.26 across a frame at 4-15
degrees), and one higher or lower than at enrollment sees them all smaller or bigger: the outlines then name a leg
an arm. The pieces whose type their shape tells (skull, ribs, pelvis) say how big a piece is at their place: their
size against their type's enrolled size is fitted as a plane over the photo, log(linear size) = a + b u + c v (u, v:
place across the photo's width and height, -0.5 to 0.5). Where the plane says the photo is tilted or taken from
another height, the photo is warped by the homography whose local scale undoes it (a tilted plane's image differs
from a straight one by such a homography), and read there.

Graves drawn as four corners are rectangles on the board: their opposite sides meet at the board's vanishing points,
which lie on its vanishing line, and that line says the tilt (affine rectification, Hartley and Zisserman 2.7.2)
more surely than a few pieces in one corner of the photo. The pieces then say only how far the camera is.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

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
RECTANGLES = 2  # four-cornered graves needed to say the tilt, each one's own vanishing line agreeing with ...
# ... their common one to this (log linear size across the photo): with corners clicked 2 px off (sd) every board
# of the committed sets' agreed, 3 px off 92 %, their tilt then 0.1 (p95) off the exact corners'; a trapezoid not
AGREED_TILT = 0.2


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

    @classmethod
    def tilt_of(cls, quads: list[np.ndarray], width: int, height: int) -> SizeField | None:
        """The plane of the sizes (level at the photo's centre: a = 0) that quadrilaterals drawn on a flat board's
        rectangles say, if RECTANGLES of them agree on it; else None (graves of other shapes, or not drawn square)."""
        quads = [np.asarray(q, np.float64).reshape(-1, 2) for q in quads]
        quads = [q for q in quads if len(q) == 4]
        if len(quads) < RECTANGLES:
            return None
        points = []  # each quad's two vanishing points, in photo widths from its centre (homogeneous, unit length)
        own = []  # each quad's own plane (b, c)
        for quad in quads:
            p = np.c_[(quad - (width / 2, height / 2)) / width, np.ones(4)]
            meets = [
                np.cross(np.cross(p[0], p[1]), np.cross(p[3], p[2])),
                np.cross(np.cross(p[1], p[2]), np.cross(p[0], p[3])),
            ]
            if min(np.linalg.norm(v) for v in meets) < 1e-12:
                return None  # a side of no length
            points += [v / np.linalg.norm(v) for v in meets]
            own.append(cls._plane_of(np.cross(meets[0], meets[1]), width, height))
        line = np.linalg.svd(np.array(points))[2][-1]
        common = cls._plane_of(line, width, height)
        if common is None or any(o is None or np.hypot(*np.subtract(o, common)) > AGREED_TILT for o in own):
            return None
        return cls(0.0, common[0], common[1], width, height)

    @staticmethod
    def _plane_of(line: np.ndarray, width: int, height: int) -> tuple[float, float] | None:
        """(b, c) of the vanishing line ``line`` (in photo widths from the centre): scaled to end in 1, it is the
        affine rectification's last row, and the board's sizes in the photo go as (1 + l1 x + l2 y) ** 1.5."""
        if abs(line[2]) < 1e-9:
            return None  # the line through the photo's centre: no camera looks at a board so
        l1, l2 = line[0] / line[2], line[1] / line[2]
        return float(1.5 * l1), float(1.5 * l2 * height / width)

    def levelled(self, log_sizes: list[float], places: list[tuple[float, float]]) -> SizeField:
        """This plane's tilt, its level where ``log_sizes`` at ``places`` put it (their median off the tilt); with
        fewer than MIN_LEVEL sizes, as it is (a board of arms and legs only: the camera as high as at enrollment)."""
        if len(log_sizes) < MIN_LEVEL:
            return self
        return replace(self, a=self.a + float(np.median(np.subtract(log_sizes, self._tilt_at(places)))))

    @property
    def uneven(self) -> bool:
        """Whether the photo's pieces are sized other than enrolled (camera tilted or at another height), within
        what a camera could do."""
        off = abs(self.a) >= OTHER_HEIGHT or np.hypot(self.b, self.c) >= TILTED
        return bool(off and max(abs(self.a), abs(self.b), abs(self.c)) <= MAX_FIELD)

    def spread_at(self, places: np.ndarray) -> float:
        """How much the plane's tilt changes a piece's log size between ``places`` (photo px): at least half of it
        lies between some place and the level, whatever the level."""
        tilt = self._tilt_at(places)
        return float(tilt.max() - tilt.min())

    def uneven_at(self, places: np.ndarray) -> bool:
        """Whether a piece at any of ``places`` (photo px) looks OTHER_HEIGHT off its enrolled size, within what a
        camera could do: for a plane whose tilt is sure (the graves'), where its level and tilt add up."""
        off = np.abs(self.a + self._tilt_at(places)).max()
        return bool(off >= OTHER_HEIGHT and max(abs(self.a), abs(self.b), abs(self.c)) <= MAX_FIELD)

    def _tilt_at(self, places: np.ndarray | list[tuple[float, float]]) -> np.ndarray:
        """b u + c v at each of ``places`` (photo px): the plane less its level."""
        u, v = np.asarray(places, np.float64).reshape(-1, 2).T
        return self.b * (u / self.width - 0.5) + self.c * (v / self.height - 0.5)

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
