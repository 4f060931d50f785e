"""The Sepulchre board seen square: its printed ArUco markers found in a photo and the photo warped so the board
lies flat at one scale. A piece then has the same size and shape anywhere on the board however the camera is
tilted or high, and the graves are given once, in board coordinates, for every photo.

GRAVES.json in board form::

    {"board": {"size": [W, H], "markers": {"0": [x, y], "1": [x, y], ...}},
     "graves": {"north": [[x, y], ...], ...}}

``size`` is the flat board in board pixels (choose them as the enrollment photos' pixels: a piece enrolled from
a straight-down photo at that scale reads the same here); each marker is its centre there (ArUco 4x4_50).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, NamedTuple

import cv2
import numpy as np

from ..errors import BadInput

MIN_MARKERS = 4  # a homography needs four points; more are averaged by a least-squares fit
MAX_SIDE = 8000  # board px: a bigger board is a typing slip (and a warp that size would fill the memory)
EDGE = 0.01  # of the board's short side: its edge, replaced by the board just inside it
MARKER_MARGIN = 1.6  # a marker is painted over this many times its size: its printed white margin too
LOOK_AROUND = 4  # marker sides: how far from its guessed place a marker missed at half size is looked for
DETECT_HALF = 1000  # px: photos at least this big on their short side are searched for markers at half size
# the dice mat (hardware/make_mat.py): 620 x 350 mm, its ArUco 4x4_50 markers 0-3 clockwise from the top left, 40 mm
# each, 20 mm in from its edges: the mat's edge lies a marker's side beyond their centres
MAT_MM = (620.0, 350.0)
MAT_MARKER_CENTRES_MM = {0: (40.0, 40.0), 1: (580.0, 40.0), 2: (580.0, 310.0), 3: (40.0, 310.0)}
# the mat's markers are big (40 mm: a perimeter 0.16-0.22 of a table camera's frame width, 0.09 with a wide lens at
# 75 cm): smaller squares are not looked at, nor thresholded in windows of 3 px (a gingham photo: 64 -> 15 ms)
BIG_MARKER = (0.05, 13)  # the least perimeter (of the photo's longer side), the least threshold window (px)
MAT_MARKERS_NEEDED = 2  # markers seen (dice lie on the others) for the mat's edge to be placed ...
# ... and with fewer than four, of the mat's width that its edge may be off (a camera tilted 15 degrees: 1-3 %)
MAT_GIVE = 0.05
MAT_GIVE_SEEN = 0.01  # ... and where that side's edge is seen in the photo (`_edge_seen`): a tilt bends it a little
MAT_SHRINK = 2  # the mat's markers are looked for at half size (4-6 ms a 3 Mpx photo)
# where the mat's edge is looked for (`_edge_seen`), in mm: from this far past a marker's outer edge (its print's
# own margin) to this far past the printed edge, every EDGE_SAMPLE_MM, along the middle of each side (not its markers)
# every EDGE_ALONG_MM (a hundred samples a line or more: enough to tell most from few)
EDGE_CLEAR_MM, EDGE_LOOK_PAST_MM, EDGE_SAMPLE_MM, EDGE_ALONG_MM, EDGE_SPAN = 2.0, 4.0, 1.0, 2.5, (0.15, 0.85)
EDGE_TONE = 12  # grey levels (or 3 of the mat's own spreads) off the mat's median tone: still the mat's tone ...
EDGE_LIKE = 0.5  # ... for this share of a line's samples: the mat
EDGE_IN_FRAME = 0.3  # of a side's length in the photo for its edge to be looked for there


@dataclass(frozen=True)
class Board:
    size: tuple[int, int]  # the flat board, board px (width, height)
    markers: dict[int, tuple[float, float]]  # marker id -> its centre on the board, board px

    @classmethod
    def from_json(cls, data: Any) -> Board:
        if not isinstance(data, dict) or set(data) != {"size", "markers"}:
            raise BadInput('"board" is {"size": [W, H], "markers": {"id": [x, y], ...}}')
        size, markers = data["size"], data["markers"]
        if not (_numbers(size, 2) and all(1 <= v <= MAX_SIDE for v in size)):
            raise BadInput(f"board size: two numbers 1-{MAX_SIDE} (board px), not {size!r}")
        if not isinstance(markers, dict) or len(markers) < MIN_MARKERS:
            raise BadInput(f'board markers: at least {MIN_MARKERS}, as {{"id": [x, y]}}')
        out = {}
        for key, centre in markers.items():
            if not (isinstance(key, str) and key.isdigit() and int(key) < 50):
                raise BadInput(f"board marker {key!r}: an ArUco 4x4_50 id is a number 0-49")
            if not _numbers(centre, 2):
                raise BadInput(f"board marker {key}: its centre is [x, y] in board px")
            out[int(key)] = (float(centre[0]), float(centre[1]))
        return cls((int(size[0]), int(size[1])), out)

    def _located(self, image: np.ndarray) -> tuple[np.ndarray, dict[int, np.ndarray]]:
        """The photo-to-board homography from the markers the photo shows, and their corners; a one-line error
        when too few show."""
        seen = markers_seen(image, shrink=2)
        missing = set(self.markers) - set(seen)
        if missing:  # too small or too tilted to show at half size: every pixel, where the others say it lies
            seen.update(self._looked_closer(image, seen, missing))
        shared = sorted(set(seen) & set(self.markers))
        if len(shared) < MIN_MARKERS:
            unseen = sorted(set(self.markers) - set(seen))
            raise BadInput(f"board markers {unseen} not seen in the photo: is a corner of the board covered?")
        src = np.array([seen[i].mean(axis=0) for i in shared], np.float32)
        dst = np.array([self.markers[i] for i in shared], np.float32)
        matrix, _ = cv2.findHomography(src, dst, 0)
        if matrix is None:
            raise BadInput("the board's markers do not make a board (all on one line?)")
        return matrix, {i: seen[i] for i in shared}

    def _looked_closer(
        self, image: np.ndarray, seen: dict[int, np.ndarray], missing: set[int]
    ) -> dict[int, np.ndarray]:
        """The missing markers searched at full size round where the markers found place them (an affine guess
        from three or more; the whole photo when fewer were found, or one is not where guessed)."""
        known = [i for i in seen if i in self.markers]
        if len(known) < 3:
            return markers_seen(image, shrink=1)
        board = np.array([self.markers[i] for i in known], np.float32)
        photo = np.array([seen[i].mean(axis=0) for i in known], np.float32)
        guess, _ = cv2.estimateAffine2D(board, photo)
        if guess is None:
            return markers_seen(image, shrink=1)
        side = float(np.median([np.linalg.norm(seen[i][0] - seen[i][1]) for i in known]))
        reach = int(LOOK_AROUND * side)
        found = {}
        for i in missing:
            x, y = (guess @ np.array([*self.markers[i], 1.0])).astype(int)
            x0, y0 = max(0, x - reach), max(0, y - reach)
            window = image[y0 : y + reach, x0 : x + reach]
            near = markers_seen(window, shrink=1)
            if i not in near:  # a marker some 25 px across (a low-resolution camera): looked at twice as big
                near = _halved(markers_seen(cv2.resize(window, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)))
            if i not in near:
                return markers_seen(image, shrink=1)
            found[i] = near[i] + np.array([x0, y0], np.float32)
        return found

    def rectify(self, image: np.ndarray, scale: float = 1.0) -> np.ndarray:
        """The photo warped so the board lies flat, ``size`` board px times ``scale``; its markers (and their
        white margins) painted over in the board's colour around them, so they are never taken for pieces."""
        matrix, corners = self._located(image)
        matrix = np.diag([scale, scale, 1.0]) @ matrix
        size = (max(1, round(self.size[0] * scale)), max(1, round(self.size[1] * scale)))
        # a warp samples, it does not average: shrunk first by area (as the reader shrinks), then warped
        shrink = 2 ** int(np.floor(np.log2(1 / scale))) if scale < 1 else 1
        small = (
            cv2.resize(image, None, fx=1 / shrink, fy=1 / shrink, interpolation=cv2.INTER_AREA) if shrink > 1 else image
        )
        half = (shrink - 1) / 2  # a small photo's px to the photo's (pixel centres)
        to_small = np.array([[shrink, 0, half], [0, shrink, half], [0, 0, 1.0]])
        flat = cv2.warpPerspective(small, matrix @ to_small, size, flags=cv2.INTER_LINEAR)
        # the board's very edge mixes board and table in the photo: a light seam a piece's width long in places
        edge = max(1, round(min(size) * EDGE))
        flat = cv2.copyMakeBorder(flat[edge:-edge, edge:-edge], edge, edge, edge, edge, cv2.BORDER_REPLICATE)
        for outline in corners.values():
            paint_marker_over(flat, cv2.perspectiveTransform(outline[None].astype(np.float64), matrix)[0])
        return flat


def _halved(seen: dict[int, np.ndarray]) -> dict[int, np.ndarray]:
    """Markers' corners found in a photo grown twice as big, in the photo's own px (pixel centres kept)."""
    return {i: (corners + 0.5) / 2 - 0.5 for i, corners in seen.items()}


def paint_marker_over(image: np.ndarray, square: np.ndarray) -> None:
    """A marker (its four corners, px) and its printed white margin (MARKER_MARGIN) painted in the colour round it."""
    centre = square.mean(axis=0)
    paint_over(image, centre + (square - centre) * MARKER_MARGIN, centre + (square - centre) * MARKER_MARGIN * 1.3)


def paint_over(image: np.ndarray, inner: np.ndarray, outer: np.ndarray) -> None:
    """``inner`` filled with the median colour of the ring between it and ``outer`` (the board beside it)."""
    h, w = image.shape[:2]
    x0, y0 = np.clip(np.floor(outer.min(axis=0)).astype(int), 0, [w, h])
    x1, y1 = np.clip(np.ceil(outer.max(axis=0)).astype(int) + 1, 0, [w, h])
    if x1 <= x0 or y1 <= y0:
        return
    box = image[y0:y1, x0:x1]  # a view: painting it paints the image
    ring = np.zeros(box.shape[:2], np.uint8)
    cv2.fillPoly(ring, [np.round(outer - [x0, y0]).astype(np.int32)], 255)
    cv2.fillPoly(ring, [np.round(inner - [x0, y0]).astype(np.int32)], 0)
    around = box[ring > 0]
    if len(around):
        colour = np.median(around.reshape(len(around), -1), axis=0)
        fill = colour.tolist() if image.ndim == 3 else float(colour[0])
        cv2.fillPoly(box, [np.round(inner - [x0, y0]).astype(np.int32)], fill)


def marker_centres(image: np.ndarray | None, shrink: int = 1) -> dict[int, np.ndarray]:
    """Each ArUco 4x4_50 marker the photo shows, by id: its centre in photo pixels."""
    return {i: corners.mean(axis=0) for i, corners in markers_seen(image, shrink).items()}


def markers_seen(image: np.ndarray | None, shrink: int = 1, big: bool = False) -> dict[int, np.ndarray]:
    """Each ArUco 4x4_50 marker the photo shows, by id: its four corners in photo pixels. ``shrink``: searched in
    the photo made this many times smaller (faster; a photo under DETECT_HALF px is searched as it is); ``big``: only
    markers as big as the dice mat's (faster on a busy photo, whose gingham or print are so many small squares)."""
    if image is None:
        return {}
    parameters = cv2.aruco.DetectorParameters()
    if big:
        parameters.minMarkerPerimeterRate, parameters.adaptiveThreshWinSizeMin = BIG_MARKER
        # thresholded on a copy scaled down to such markers' size (OpenCV's ArUco 3): on a gingham table 20-24 -> 4-7
        # ms, the same markers and corners to the pixel on every bench photo (626 markers)
        parameters.useAruco3Detection = True
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), parameters)
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    shrink = shrink if min(grey.shape) >= DETECT_HALF else 1
    if shrink > 1:
        grey = cv2.resize(grey, None, fx=1 / shrink, fy=1 / shrink, interpolation=cv2.INTER_AREA)
    corners, ids, _ = detector.detectMarkers(grey)
    if ids is None:
        return {}
    return {int(i): (c.reshape(4, 2) + 0.5) * shrink - 0.5 for i, c in zip(ids.ravel(), corners)}


class MatOutline(NamedTuple):
    """The dice mat in a photo: its edge (four corners, photo px, clockwise from the top left), the corners of each of
    its markers seen, and how far (px) each side of the edge (top, right, bottom, left) may be off."""

    edge: np.ndarray
    markers: list[np.ndarray]
    gives: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)

    @property
    def give(self) -> float:
        """How far (px) the edge may be off anywhere."""
        return max(self.gives)


def mat_outline(image: np.ndarray) -> MatOutline | None:
    """The dice mat's edge in a photo, placed by its markers' centres: four seen, by a homography; three, an affine
    map; two, a similarity (a camera's tilt bends it a little); None with fewer (no mat, or one under the dice). The
    edge lies a marker's side beyond the markers' centres, as printed, or nearer them where the photo shows the mat's
    tone end there (a mat whose markers are printed smaller, or further in: `_edge_seen`)."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    seen = {i: c for i, c in markers_seen(grey, MAT_SHRINK, big=True).items() if i in MAT_MARKER_CENTRES_MM}
    if len(seen) < MAT_MARKERS_NEEDED:
        return None
    mm = np.array([MAT_MARKER_CENTRES_MM[i] for i in seen], np.float32)
    px = np.array([seen[i].mean(axis=0) for i in seen], np.float32)
    px_per_mm = float(
        np.median(
            [np.linalg.norm(px[a] - px[b]) / np.linalg.norm(mm[a] - mm[b]) for a in range(len(seen)) for b in range(a)]
        )
    )
    side = float(np.mean([np.linalg.norm(c - np.roll(c, 1, axis=0), axis=1).mean() for c in seen.values()])) / px_per_mm
    to_px = _mm_to_px(mm, px)
    (left, top, right, bottom), found = _edge_seen(grey, to_px, side)
    corners = np.array([[left, top], [right, top], [right, bottom], [left, bottom]], np.float32)
    edge = to_px(corners)
    width = float(np.linalg.norm(edge[1] - edge[0]))
    left_seen, top_seen, right_seen, bottom_seen = found

    def give(seen_there: bool, ends: tuple[int, int]) -> float:
        # a side between two markers seen lies where they put it (a line maps to a line): only its offset is scaled
        held = seen_there or all(i in seen for i in ends)
        return 0.0 if len(seen) == 4 else (MAT_GIVE_SEEN if held else MAT_GIVE) * width

    gives = (give(top_seen, (0, 1)), give(right_seen, (1, 2)), give(bottom_seen, (2, 3)), give(left_seen, (3, 0)))
    return MatOutline(edge.astype(np.float32), list(seen.values()), gives)


def _mm_to_px(mm: np.ndarray, px: np.ndarray):
    """The map from the mat's mm to the photo's px through the markers seen (their centres ``mm`` at ``px``)."""
    if len(mm) == 4:
        homography = cv2.getPerspectiveTransform(mm, px)
        return lambda points: cv2.perspectiveTransform(np.asarray(points, np.float32)[None], homography)[0]
    if len(mm) == 3:
        affine = cv2.getAffineTransform(mm, px)
        return lambda points: np.asarray(points, np.float32) @ affine[:, :2].T + affine[:, 2]
    # z -> a z + b, in complex numbers: a turn, a scale and a shift
    (s0, s1), (d0, d1) = (complex(*p) for p in mm), (complex(*p) for p in px)
    a = (d1 - d0) / (s1 - s0)

    def similarity(points) -> np.ndarray:
        z = a * (np.asarray(points, np.float64) @ [1, 1j] - s0) + d0
        return np.stack([z.real, z.imag], axis=-1).astype(np.float32)

    return similarity


def _edge_seen(
    grey: np.ndarray, to_px, side: float
) -> tuple[tuple[float, float, float, float], tuple[bool, bool, bool, bool]]:
    """The mat's left, top, right and bottom edges (mm), and whether each was seen: a marker's ``side`` beyond the
    markers' centres, as printed, or nearer, from a marker's outer edge on, where along the edge most of the photo
    stops being of the mat's tone (EDGE_LIKE of the samples within EDGE_TONE of it) and stays so past the printed
    edge: a printed line, or dice, are a few of a line's samples; a patterned table (gingham) has few of the mat's
    tone; a table of the mat's own tone (white paper on a white table) shows no edge, and the printed one is kept."""
    (left, top), (right, bottom) = MAT_MARKER_CENTRES_MM[0], MAT_MARKER_CENTRES_MM[2]
    beyond = np.arange(side / 2 + EDGE_CLEAR_MM, side + EDGE_LOOK_PAST_MM, EDGE_SAMPLE_MM)  # mm past the centres
    h, w = grey.shape
    edges, seen = [], []
    for origin, outward, along, length in (
        ((left, top), (-1, 0), (0, 1), bottom - top),
        ((left, top), (0, -1), (1, 0), right - left),
        ((right, top), (1, 0), (0, 1), bottom - top),
        ((left, bottom), (0, 1), (1, 0), right - left),
    ):
        at = np.arange(EDGE_SPAN[0] * length, EDGE_SPAN[1] * length, EDGE_ALONG_MM)
        mm = np.array(origin) + beyond[:, None, None] * outward + at[None, :, None] * along
        px = np.round(to_px(mm.reshape(-1, 2))).astype(int).reshape(len(beyond), len(at), 2)
        columns = ((px[..., 0] >= 0) & (px[..., 0] < w) & (px[..., 1] >= 0) & (px[..., 1] < h)).all(axis=0)
        pull, found = 0.0, False
        if columns.mean() >= EDGE_IN_FRAME:
            levels = grey[px[:, columns, 1], px[:, columns, 0]].astype(np.float32)  # (offsets, samples along)
            tone = float(np.median(levels[:2]))
            spread = float(np.median(np.abs(levels[:2] - tone)))
            like = (np.abs(levels - tone) <= max(EDGE_TONE, 3 * spread)).mean(axis=1) >= EDGE_LIKE
            if found := not like[-1]:  # past the printed edge: the table
                first = len(like) - int(np.argmax(like[::-1]))  # the first offset of the last run unlike the mat
                pull = max(0.0, side - float(beyond[first]) + EDGE_SAMPLE_MM / 2)
        edges.append(pull)
        seen.append(found)
    sides = (left - side + edges[0], top - side + edges[1], right + side - edges[2], bottom + side - edges[3])
    return sides, (seen[0], seen[1], seen[2], seen[3])


class SeenMat:
    """The dice mat in one photo: its markers looked for once, when first asked (a few ms a 3 Mpx photo)."""

    def __init__(self, gray: np.ndarray) -> None:
        self._gray = gray

    @cached_property
    def outline(self) -> MatOutline | None:
        return mat_outline(self._gray)

    def on_a_marker(self, point) -> bool | None:
        """Whether ``point`` (px) lies on one of the mat's markers, when all four were seen (else None: not known
        here; a marker under a die, or one not the mat's, may lie there)."""
        mat = self.outline
        if mat is None or len(mat.markers) < len(MAT_MARKER_CENTRES_MM):
            return None
        where = (float(point[0]), float(point[1]))
        return any(cv2.pointPolygonTest(corners.astype(np.float32), where, False) >= 0 for corners in mat.markers)

    def holds(self, point, slack: float = 0.0) -> bool:
        """Whether ``point`` (px) lies on the mat, or within ``slack`` px of its edge and each side's give; with too
        few of the mat's markers seen, anywhere may be the mat."""
        x, y = float(point[0]), float(point[1])
        return all((x - x0) * nx + (y - y0) * ny >= -(slack + give) for x0, y0, nx, ny, give in self._sides)

    @cached_property
    def _sides(self) -> list[tuple[float, float, float, float, float]]:
        """Each side of the mat's edge: a corner on it, its unit normal into the mat, and its give (px); none with
        the mat not seen (every point held)."""
        mat = self.outline
        if mat is None:
            return []
        sides = []
        for (x0, y0), (x1, y1), give in zip(mat.edge.tolist(), np.roll(mat.edge, -1, axis=0).tolist(), mat.gives):
            length = float(np.hypot(x1 - x0, y1 - y0))
            sides.append((x0, y0, -(y1 - y0) / length, (x1 - x0) / length, give))  # clockwise: the right hand, in
        return sides


def _numbers(value: Any, n: int) -> bool:
    return (
        isinstance(value, list)
        and len(value) == n
        and all(isinstance(v, (int, float)) and not isinstance(v, bool) and np.isfinite(v) for v in value)
    )


def on_a_marker(image: np.ndarray, point: tuple[float, float], reach: int, grown: float = 1.0) -> bool:
    """Whether ``point`` (px) lies on an ArUco 4x4_50 marker, grown ``grown`` times about its centre (its printed
    margin too), looked for within ``reach`` px of the point only: a reader pays for it only where it would flag."""
    x0, y0 = max(0, int(point[0]) - reach), max(0, int(point[1]) - reach)
    for corners in markers_seen(image[y0 : int(point[1]) + reach, x0 : int(point[0]) + reach]).values():
        if grown != 1.0:
            corners = (corners - corners.mean(axis=0)) * grown + corners.mean(axis=0)
        if cv2.pointPolygonTest((corners + (x0, y0)).astype(np.float32), point, False) >= 0:
            return True
    return False
