"""Find dice-sized blobs that stand out from the mat, splitting dice that touch.

The mat is modelled as a heavy median blur at low resolution (the dice are
small next to it), so any mat colour, texture and slow light gradient works.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

WORK_SCALE = 0.5  # segment at half resolution: dice stay ~20 px wide
BG_SCALE = 0.125  # the mat model: dice are ~5 px here, the median window spans several
DIM = 60  # a photo whose median grey level is below this was taken in a dim room
MIN_THICKNESS = 10  # work px: a die is ~20 across from 55-75 cm; mat edges and cables are thinner
SPRAWL_OPENING = 0.75  # of a die's width: a blob far from solid is opened by this much (a mat's corner goes) ...
CORE = 0.8  # ... and what is left this share of a die's area or more is searched (a die keeps ~0.87)


@dataclass
class Blob:
    """A die candidate in full-resolution pixels: its rotated box and what it touched."""

    center: tuple[float, float]
    size: tuple[float, float]
    angle: float
    area: float
    at_border: bool
    faint: bool = False  # only its pictogram stood out from the mat (a dark die on a dark mat, dim light): box unknown
    # the outline (photo px, an (n, 2) array) of the blob, or of the touching dice it was split from; None for a
    # box only
    outline: np.ndarray | None = field(default=None, compare=False, repr=False)

    @property
    def side(self) -> float:
        return (self.size[0] + self.size[1]) / 2

    @property
    def aspect(self) -> float:
        a, b = self.size
        return max(a, b) / max(1e-6, min(a, b))


def at_work_scale(image: np.ndarray) -> np.ndarray:
    """The photo at WORK_SCALE, where blobs and markers are looked for (made once a photo: ~4 ms)."""
    return cv2.resize(image, None, fx=WORK_SCALE, fy=WORK_SCALE, interpolation=cv2.INTER_AREA)


def foreground(small: np.ndarray) -> np.ndarray:
    """A mask of what is not mat in ``small``, the photo at WORK_SCALE."""
    tiny = cv2.resize(small, None, fx=BG_SCALE / WORK_SCALE, fy=BG_SCALE / WORK_SCALE, interpolation=cv2.INTER_AREA)
    mat = cv2.medianBlur(tiny, 9)
    mat = cv2.resize(mat, (small.shape[1], small.shape[0]), interpolation=cv2.INTER_LINEAR)
    # compared after a light blur: sensor noise in a dim room would otherwise drown a dark die on a dark mat
    blue, green, red = cv2.split(cv2.absdiff(cv2.blur(small, (5, 5)), mat))
    diff = cv2.add(cv2.add(blue, green, dtype=cv2.CV_16U), red, dtype=cv2.CV_16U)  # ~12x numpy's sum(axis=2)
    noise = float(np.median(diff[::4, ::4]))
    threshold = max(18.0, noise * 3.0 + 9.0)
    mask = (diff > threshold).astype(np.uint8) * 255
    # a dark die on a dark mat differs little in colour, but its rim and pictogram are sharp edges
    gray = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (3, 3), 1.0)
    edges = cv2.magnitude(cv2.Sobel(gray, cv2.CV_32F, 1, 0), cv2.Sobel(gray, cv2.CV_32F, 0, 1))
    edge_floor = max(60.0, float(np.median(edges[::4, ::4])) * 6.0)
    mask |= (edges > edge_floor).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    mask = _fill_small_holes(mask, max_hole=900)
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))


def _fill_small_holes(mask: np.ndarray, max_hole: int) -> np.ndarray:
    """Fill holes up to a die's size (the inside of a pictogram), never the whole mat inside its edge."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(255 - mask, connectivity=4)
    small = np.zeros(n, bool)
    small[1:] = stats[1:, cv2.CC_STAT_AREA] <= max_hole
    filled = mask.copy()
    filled[small[labels]] = 255
    return filled


def find_blobs(image: np.ndarray, die_side: float | None = None) -> tuple[list[Blob], float]:
    """Dice candidates. With ``die_side`` (px, as enrolled) touching dice are split and
    blobs far from a die's size dropped; without it (enrollment) every solid blob is kept."""
    blobs, die_side, _ = find_blobs_and_markers(image, die_side)
    return blobs, die_side


def find_blobs_and_markers(
    image: np.ndarray, die_side: float | None = None
) -> tuple[list[Blob], float, list[np.ndarray]]:
    """`find_blobs`, and the corner markers' outlines (a blob's outline may take in part of one)."""
    small = at_work_scale(image)
    seen, placed = _markers(image, small)
    # only the markers seen are cut out of the mask: a placed one's outline is good to ~10-20 px, and a die lying on
    # its white border lost its corner to it and went unread; its blobs still go (their centres lie in it)
    mask = _without_markers(foreground(small), seen, die_side)
    markers = seen + placed
    h, w = mask.shape
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    min_area = 60 if die_side is None else (die_side * WORK_SCALE) ** 2 * 0.35
    # dice fill most of their box, and a heap of them at least a good part of it; mat edges and cables do not
    big = 4 * min_area

    def is_solid(c) -> bool:
        return _thickness(c) >= MIN_THICKNESS and _fill(c) > (0.4 if cv2.contourArea(c) > big else 0.65)

    solid, sprawling = [], []
    for c in contours:
        if cv2.contourArea(c) >= min_area:
            (solid if is_solid(c) else sprawling).append(c)
    # dice whose shadows join them to a thin line (the mat's edge, a cable) or to each other make one sprawling
    # blob, not solid: what is left once its parts thinner than most of a die are opened away is dice, however
    # it sprawls (searched as a heap), if it is as big as a die (a mat's corner is less)
    die_area = (die_side or 0.0) ** 2 * WORK_SCALE**2
    half_seen = []  # die-sized, sprawling, nothing thick in it: in a dim room, a dark die only partly seen
    for c in sprawling:
        parts = [
            part
            for part in _thick_parts(mask, [c], _opening(die_side, SPRAWL_OPENING))
            if cv2.contourArea(part) >= max(min_area, CORE * die_area) and _thickness(part) >= MIN_THICKNESS
        ]
        solid += parts
        if not parts and cv2.contourArea(c) <= 2 * die_area:
            half_seen.append(c)
    # bits of a pictogram: a thin bone in a dim photo stood out as two, of 0.027 and 0.068 of a die's face
    specks = [c for c in contours if 0.02 * min_area / 0.35 <= cv2.contourArea(c) < min_area and _thickness(c) >= 2]
    specks += half_seen  # where a dark die on a dark mat showed its print and a little of its body (searched so)
    contours = solid
    die_side = die_side or 0.0
    blobs: list[Blob] = []
    expected = (die_side * WORK_SCALE) ** 2
    for contour in contours:
        area = cv2.contourArea(contour)
        if expected and area > expected * 1.5:
            blobs += _split(mask, contour, die_side * WORK_SCALE)
        else:
            blobs.append(_blob(contour, w, h))
    if expected:
        blobs = [b for b in blobs if b.area >= 0.35 * die_side**2]  # specks; big blobs stay, to be flagged
        if float(np.median(image[::8, ::8])) < DIM:
            # in a dim room a dark die on a dark mat may show nothing but its pictogram
            blobs += _faint_dice(specks, blobs, die_side, w, h)
    # a blob still centred on a marker (one spanning its outline) is the marker's
    blobs = [b for b in blobs if not any(cv2.pointPolygonTest(m, b.center, False) >= 0 for m in markers)]
    return blobs, die_side, markers


def _without_markers(mask: np.ndarray, markers: list[np.ndarray], die_side: float | None) -> np.ndarray:
    """The mask less the markers: a die pressed against one would otherwise be one blob with it, and go with
    it (a die left out: a wrong score). What is left of a marker's white border beyond its outline is thinner
    than a die, and is opened away; only there, so nothing else changes."""
    if not markers:
        return mask
    outlines = [np.round(marker * WORK_SCALE).astype(np.int32) for marker in markers]
    width = _opening(die_side)
    cut = mask.copy()
    cv2.fillPoly(cut, outlines, 0)
    out = mask.copy()
    for outline in outlines:
        # only round each marker changes: worked on there (the whole mask, four times over, cost ~6 ms a photo)
        x, y, w, h = cv2.boundingRect(outline)
        margin = 3 * width  # the dilation, then room for the opening and for the specks' extent
        x0, y0 = max(0, x - margin), max(0, y - margin)
        x1, y1 = min(mask.shape[1], x + w + margin), min(mask.shape[0], y + h + margin)
        if x1 <= x0 or y1 <= y0:
            continue  # placed wholly outside the photo
        near = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillPoly(near, [outline - [x0, y0]], 255)
        near = cv2.dilate(near, np.ones((2 * width + 1, 2 * width + 1), np.uint8))
        part = cut[y0:y1, x0:x1]
        opened = cv2.morphologyEx(part, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (width, width)))
        # specks stay as they are: in a dim room a dark die's pictogram may be all that shows of it
        n, labels, stats, _ = cv2.connectedComponentsWithStats(part, connectivity=8)
        specks = np.zeros(n, bool)
        specks[1:] = stats[1:, cv2.CC_STAT_AREA] < width * width
        out[y0:y1, x0:x1] = np.where(
            near > 0, np.maximum(opened, np.where(specks[labels], part, 0)), mask[y0:y1, x0:x1]
        )
    return out


def _opening(die_side: float | None, share: float = 0.5) -> int:
    """Work px, odd: what is thinner than ``share`` of a die is no die, and is opened away where only dice
    should be (never less than MIN_THICKNESS)."""
    return max(MIN_THICKNESS, int(share * (die_side or 0.0) * WORK_SCALE)) | 1


def _thick_parts(mask: np.ndarray, contours: list[np.ndarray], width: int) -> list[np.ndarray]:
    """The outlines of what is left of each blob once its parts thinner than ``width`` are opened away."""
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (width, width))
    parts = []
    for contour in contours:
        x, y, w, h = cv2.boundingRect(contour)
        blob = np.zeros((h, w), np.uint8)
        cv2.drawContours(blob, [contour], -1, 255, -1, offset=(-x, -y))
        # OpenCV erodes as if beyond the image were foreground: a blob cut by its box's edge would not open there
        opened = cv2.morphologyEx(
            blob & mask[y : y + h, x : x + w], cv2.MORPH_OPEN, kernel, borderType=cv2.BORDER_CONSTANT, borderValue=0
        )
        parts += cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE, offset=(x, y))[0]
    return parts


def _faint_dice(specks, blobs: list[Blob], die_side: float, w: int, h: int) -> list[Blob]:
    """Where only a pictogram shows (its bits close together, away from every solid blob): a die-sized
    place to search, its box unknown."""
    s = 1 / WORK_SCALE
    bits = [(np.array(cv2.minAreaRect(c)[0]) * s, cv2.contourArea(c) * s * s) for c in specks]
    bits = [(xy, a) for xy, a in bits if all(np.hypot(*(xy - b.center)) > 0.8 * die_side for b in blobs)]
    groups: list[list[tuple[np.ndarray, float]]] = []
    for xy, a in bits:
        home = next((g for g in groups if np.hypot(*(xy - g[0][0])) < 0.7 * die_side), None)
        (home.append((xy, a)) if home else groups.append([(xy, a)]))
    faint = []
    for group in groups:
        ink = sum(a for _, a in group)
        if ink < 0.05 * die_side**2:  # a die's print covers more (that thin bone 0.095: at 0.08 it went unseen)
            continue
        (cx, cy) = sum(xy * a for xy, a in group) / ink
        reach = 0.7 * die_side
        border = cx - reach < 0 or cy - reach < 0 or cx + reach > w * s or cy + reach > h * s
        faint.append(Blob((float(cx), float(cy)), (1.4 * die_side, 1.4 * die_side), 0.0, die_side**2, border, True))
    return faint


def marker_outlines(image: np.ndarray) -> list[np.ndarray]:
    """The mat's ArUco corner markers (DICT_4X4_50), grown a little to take in their white border: never dice.
    Those seen, then those placed from their neighbours."""
    seen, placed = _markers(image, at_work_scale(image))
    return seen + placed


def _markers(image: np.ndarray, small: np.ndarray) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The outlines of the markers seen, and of the corner markers placed from their neighbours (cut by the
    frame, under glare, or a die on a white border: no detector decodes them); ``small``: the photo at WORK_SCALE."""
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    corners, ids, _ = _marker_detector(work_scale=True).detectMarkers(gray)
    # the mat's corners only: a die's print once decoded as marker 17, and a marker's outline hides what it covers
    quads = (
        {int(i): q.reshape(4, 2) / WORK_SCALE for i, q in zip(ids.ravel(), corners) if i < 4} if ids is not None else {}
    )
    if 0 < len(quads) < 4:
        # a mat with markers, some not found at half size: look again at full size (~10 ms; finds the small, far ones)
        corners, ids, _ = _marker_detector(work_scale=False).detectMarkers(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
        quads.update(
            {int(i): q.reshape(4, 2) for i, q in zip(ids.ravel(), corners) if i < 4 and i not in quads}
            if ids is not None
            else {}
        )
    placed = _placed_by_the_mat(quads)  # where the mat's edges meet

    def grown(quad: np.ndarray) -> np.ndarray:
        centre = quad.mean(axis=0)
        return ((quad - centre) * 1.5 + centre).astype(np.float32)  # the white border too

    return [grown(q) for q in quads.values()], [grown(q) for q in placed.values()]


def _marker_detector(work_scale: bool) -> cv2.aruco.ArucoDetector:
    """The corner markers' detector. At work scale it thresholds the photo over windows of 3 and 13 px, not 3, 13
    and 23 (OpenCV's default): the same markers found in half the time. At full size, where markers are twice
    as big, the default. (Made for each photo: it costs microseconds, and needs no sharing between threads.)"""
    parameters = cv2.aruco.DetectorParameters()
    if work_scale:
        parameters.adaptiveThreshWinSizeMax = 13
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), parameters)


def _placed_by_the_mat(quads: dict[int, np.ndarray]) -> dict[int, np.ndarray]:
    """Outlines of the corner markers not found (cut by the frame, under glare or a hand) whose two neighbours
    round the mat were found (ids 0-3 go round it, printed upright; ArUco gives each marker's corners clockwise
    from its top left). The mat's edges are straight lines in the photo, perspective and all, so each corner of
    a missing marker lies on the line through the same corner of each neighbour, along that neighbour's side
    facing it. (The parallelogram of the other three, perspective left out, put one 270 px off.)"""
    placed = {}
    for k in range(4):
        before, after = (k - 1) % 4, (k + 1) % 4
        if k in quads or before not in quads or after not in quads:
            continue
        corners = []
        for i in range(4):
            lines = []
            for n in (before, after):
                quad = quads[n]
                # the move from n to k is along the mat's width (0-1, 2-3) or its height (1-2, 3-0)
                across = {n, k} in ({0, 1}, {2, 3})
                direction = (
                    (quad[1] - quad[0] + quad[2] - quad[3]) if across else (quad[3] - quad[0] + quad[2] - quad[1])
                )
                lines.append((quad[i], direction))
            (p1, d1), (p2, d2) = lines
            system = np.column_stack([d1, -d2])
            if abs(np.linalg.det(system)) < 1e-6 * np.linalg.norm(d1) * np.linalg.norm(d2):
                break  # the two edges run parallel: no corner
            t = np.linalg.solve(system, p2 - p1)[0]
            corners.append(p1 + t * d1)
        if len(corners) == 4:
            placed[k] = np.float32(corners)
    return placed


def _thickness(contour) -> float:
    return min(cv2.minAreaRect(contour)[1])


def _fill(contour) -> float:
    (_, _), (a, b), _ = cv2.minAreaRect(contour)
    return cv2.contourArea(contour) / (a * b) if a * b else 0.0


def _blob(contour, w: int, h: int, outline: np.ndarray | None = None) -> Blob:
    """The blob of a contour (work px); ``outline``: of the touching dice it was split from (photo px), shared
    by all its parts, else the contour's own."""
    (cx, cy), (a, b), angle = cv2.minAreaRect(contour)
    x, y, bw, bh = cv2.boundingRect(contour)
    border = x <= 1 or y <= 1 or x + bw >= w - 1 or y + bh >= h - 1
    s = 1 / WORK_SCALE
    return Blob(
        (cx * s, cy * s),
        (a * s, b * s),
        angle,
        cv2.contourArea(contour) * s * s,
        border,
        outline=_in_photo_px(contour) if outline is None else outline,
    )


def _in_photo_px(contour) -> np.ndarray:
    return contour.reshape(-1, 2).astype(np.float32) / WORK_SCALE


def _split(mask: np.ndarray, contour, side: float) -> list[Blob]:
    """Touching dice: as many dice as the area holds, found by k-means on the blob's pixels.

    (A distance transform cannot part two dice lying edge to edge: their union is a
    rectangle with one long ridge, no separate peaks.)
    """
    h, w = mask.shape
    x, y, bw, bh = cv2.boundingRect(contour)
    region = np.zeros((bh, bw), np.uint8)
    cv2.drawContours(region, [contour], -1, 255, -1, offset=(-x, -y))
    ys, xs = np.nonzero(region)
    k = max(2, int(round(len(xs) / (side * side))))
    if k > 12:
        return [_blob(contour, w, h)]
    points = np.column_stack([xs, ys]).astype(np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.2)
    cv2.setRNGSeed(7)  # the same photo always splits the same way
    # centres from every 3rd pixel (speed), then every pixel goes to its nearest centre
    _, _, centres = cv2.kmeans(points[::3], k, None, criteria, 2, cv2.KMEANS_PP_CENTERS)
    labels = np.argmin(((points[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2), axis=1)
    blobs = []
    group = _in_photo_px(contour)  # one outline for every part: the dice they were split from
    for label in range(k):
        part = points[labels == label] + np.array([x, y], np.float32)
        if len(part) < 5:
            continue
        blobs.append(_blob(cv2.convexHull(part.astype(np.int32)), w, h, group))
    return blobs
