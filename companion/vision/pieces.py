"""Count Sepulchre skeleton pieces per grave from a photo, learned from enrollment photos.

Pieces are flat cut-outs: the type lies in the outline, not the art (12 designs,
limbs mirrored). Each piece's silhouette is described by mirror- and
rotation-free shape measures (size, elongation, solidity, Hu moments, holes)
and named by its nearest enrolled pieces; a blob too far from every enrolled
piece, or between two types, is reported unreadable ("pieces overlap" when it
is bigger than any one piece), never guessed. Pieces laid against each other make
one blob: cut where its outline narrows, each side named and confirmed by the
piece finder (piece_finding.py), counted as the finder's pieces where it is
sure of each and they fill the blob, or else covered by the enrolled pieces' own
silhouettes, each whole inside it and clear of the others (piece_tiling.py).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import cv2
import numpy as np

from ..errors import BadInput
from .board import MARKER_MARGIN, Board, markers_seen, on_a_marker, paint_marker_over
from .edges import percentile_at_least, slope
from .graves import board_of, grave_at, load_graves
from .model_sets import enrollment_photos, load_set, save_set
from .piece_finding import OVERLAP, PieceSpot, find_pieces
from .piece_silhouettes import Silhouettes, filled_outline
from .piece_tiling import Tiler
from .size_field import MIN_LEVEL, MIN_SURE, OTHER_HEIGHT, SizeField, moved

Spots = Callable[[], list[PieceSpot]]  # the finder's pieces in a board, found when first asked for

PIECE_TYPES = ("skull", "ribs", "pelvis", "arm", "leg")
LIMBS = ("arm", "leg")  # one shape: the outline tells them apart by size and thickness alone
SIZED_BY_SHAPE = ("skull", "ribs", "pelvis")  # types their shape tells: their size says how big pieces look there
WORK = 0.5  # segment at half resolution
LINE = 5  # half-res px: lines thinner than this (a grave's printed outline, the board's print) are no piece ...
# ... and a piece that stands out only with lines this thin let be has print as fine as the board's (a night-style
# rib comb's ribs, 4 half-res px): the board's grave outlines then stand out too, and were read as pieces
FINE_LINE = 3
MAX_MATCH = 1.3  # standardised distance beyond which a blob is like no enrolled piece (overlaps land at 1.5+)
MAX_TYPE_AREA = 1.2  # a blob this much bigger than the largest enrolled piece of its type is two pieces
MIN_TYPE_AREA = 0.75  # a blob this much smaller than the smallest enrolled piece of its type is not one whole
FAR_MATCH = 2.2  # a blob beyond MAX_MATCH but within this may still be a new design of a type ...
FAR_RATIO = 2.4  # ... when every other type is this much farther
NEW_DESIGN_SIZE = (0.7, 1.15)  # ... and it is the size of one piece of the type (of its largest enrolled one; the
# smallest: that of a named piece, this for a set saved before smallest sizes were kept)
MIN_RATIO = 1.25  # nearest other type must be this much farther than the nearest of the chosen type
MIN_SPREAD = np.array([0.05, 0.05, 0.02, 0.05, 1.0, 0.05, 0.05, 0.05, 0.05])  # per measure (1.0: holes, a count)
BEYOND = 0.97  # a blob with more than 3 % of it outside its grave is judged inside it too
GAP_CLOSED = 9  # half-res px: gaps narrower than this closed, for a second look at a blob (a rib comb's)
GAPPED = 1.1  # a type whose largest enrolled piece is this much bigger with its gaps closed has gaps
THICKNESS_SLACK = 0.05  # a blob's thickness within its type's enrolled range, widened this much, fits the type ...
THICKNESS_GAP = 0.1  # ... and this far outside the other type's: the two are told apart by it
PIECE_WIDTH = 61  # half-res px: wider than any piece is thick (a skull is ~40 here), narrower than a grave
BOARD_TILE = 16  # half-res px: the board's level is judged on tile averages this wide (a shadow is ~5) ...
BOARD_AROUND = 5  # ... the darkest of the 5x5 tiles around (some tile there is bare board) ...
ABOVE_BOARD = 20  # ... and a piece stands this many grey levels clear of it (the board between pieces does not)
# a blob fitting no enrolled piece of its type (piece_silhouettes.py) is two:
SOLID_FIT = (1, 0.9)  # (px near an outline counting as on it, least fit) for a solid
GAPPED_FIT = (2, 0.85)  # type (single limbs 0.9+, one along another 0.77-0.87), for a type whose gaps open and close
AGREED_FIT = 0.95  # a solid type's least fit when its enrolled pieces all lie on each other's outlines ...
AGREEMENT_WEIGHT = 5  # ... lowered by this many times their worst misfit to each other (to SOLID_FIT's least)
NOTCH_DEPTH = 2.5  # half-res px: a notch in a blob's outline this deep may be where two pieces touch ...
NECK = 0.6  # ... and a cut between two notches at most this many times the thickest enrolled piece's thickness
# (a skull's: ~22 half-res px, a bone's width and a half, a rib comb's teeth touching a bone side by side)
CUT_EDGE = 8.0  # grey levels a half-res px: an outline this steep is cut (pieces' outlines, median: 40-67 on the
# rendered sets; a lamp's reflection on the board, 0.5-5); a blob with nothing this steep in it ...
STEEPEST = 98  # ... in its steepest 2 % is light alone (blobs holding a piece: 54+; a piece's outline is ~9 % of it)
# enrollment photos of one size, this many or more, may be whole frames: the board behind them is their median
MIN_FRAMES = 3
LEAST_WHITE = 180  # a photo's white (WHITE_RANK) under this is brightened to it (lit boards' photos: 179-239) ...
WHITE_RANK = 0.995
MOST_GAIN = 4.0  # ... by this much at most (a photo of the dark alone stays dark)
MARKER_LOOK = 0.125  # of a photo's short side: how far round a flag outside the graves a board's marker is looked for
CHANGED = 25  # grey levels off the board behind: where a whole frame's own piece lies ...
OWN_PIECE = 0.5  # ... over at least this share of a blob (the board's print, its markers: the same in every frame)
SMALL_HOLE = 60  # px: holes in the mask smaller than this are a piece's print (eye sockets), filled
MIN_BLOB = 150  # half-res px: a blob smaller than this is a speck, not (part of) a piece
CUTS_DEEP = 2  # a blob is cut at most this many times over (three pieces touching in a row)
FOUND = 0.6  # a blob the outlines cannot read is counted as the finder's pieces when each is this likely ...
CLEAR = 0.3  # ... its next likeliest type under this, no overlapping pair this likely (PAIR_SEEN) inside it ...
PAIR_SEEN = 0.3
FILLED = (0.85, 1.12)  # ... and the blob is as big as they are: between these times their types' enrolled sizes
# ... and they are this many at most (a heap's size cannot tell one piece more or less beyond three: the finder's sureness
# of each does; 17 rendered sets' 848 graves, 4-6 sure pieces counted: 16 more graves right, none wrong)
MOST_FOUND = 6
# ... and no two nearer than this share of their types' thinnest enrolled thicknesses' mean (pieces side by side lie
# that far apart at least: a parallel arm and leg 18 work px; one skull seen as a skull and a pelvis, 11)
SIDE_BY_SIDE = 0.75
CONFIRMED = 0.5  # a piece the outline cut off a blob is counted when the finder is this sure of its type there
CUT_SIDE_AREA = 1.12  # a side cut off is one piece, this big at most against its type's largest enrolled (a
# whole blob may be 1.2: its shadow; a pelvis with a bone's knob left on, 1.2, looked like a skull)
SURE_PAIR = 0.6  # a blob the finder is this sure holds pieces lying across each other is not tiled (most such)
LIT_OFF = 0.9  # a blob the lamp's light joined to is read without it when that takes off a tenth of it at least
# a flat part of a blob is the lamp's light when the blob's outline is soft where it meets it: at LIT_RIM px or more, or
# at LIT_RIM_SHARE of that meeting (a lone arm's flat face, soft at 1 px of 129 where a knob is antialiased, is not)
LIT_RIM = 2
LIT_RIM_SHARE = 0.25
LIT_NEAR = 7  # half-res px: what is kept of a blob lies this near its pieces' own flat card (not a grave's line)


def _mask(image: np.ndarray, light: bool = True, scale: float = 1.0) -> np.ndarray:
    """What is not board, at the working scale. ``light``: pieces lighter than the board (a set learns which at
    enrollment; both at once would also find the dark gaps between pieces). ``scale``: the image's px per board px
    (a board warped flat may come at the working scale already)."""
    return _mask_of(_working_grey(image, scale), light)


def _working_grey(image: np.ndarray, scale: float = 1.0) -> np.ndarray:
    """The photo in grey levels at the working scale (``scale``: as ``_mask``), a dim one brightened (``_exposed``)."""
    small = (
        image
        if abs(scale - WORK) < 1e-6
        else cv2.resize(image, None, fx=WORK / scale, fy=WORK / scale, interpolation=cv2.INTER_AREA)
    )
    return _exposed(small if small.ndim == 2 else cv2.cvtColor(small, cv2.COLOR_BGR2GRAY))


def _exposed(gray: np.ndarray) -> np.ndarray:
    """A grey photo whose white (its 99.5th percentile) is under LEAST_WHITE brightened to it: the masks' bars are
    grey levels, and in a dim room's photo a piece stands out of the board by a third as many."""
    counts = np.cumsum(np.bincount(gray.ravel(), minlength=256))
    white = int(np.searchsorted(counts, WHITE_RANK * counts[-1]))
    if white >= LEAST_WHITE:
        return gray
    return cv2.convertScaleAbs(gray, alpha=min(MOST_GAIN, LEAST_WHITE / max(white, 1)))


def _mask_of(gray: np.ndarray, light: bool, line: int = LINE) -> np.ndarray:
    """What is not board in a working-scale grey photo. A top-hat against a grey opening wider than any piece is
    thick keeps the board's own large areas (grave fields and their edges) out; ``line``: as ``_opened``."""
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (PIECE_WIDTH, PIECE_WIDTH))
    contrast = cv2.morphologyEx(gray, cv2.MORPH_TOPHAT if light else cv2.MORPH_BLACKHAT, kernel)
    threshold = max(30.0, _median_of_bytes(contrast) * 3 + 15)
    mask = (contrast > threshold).astype(np.uint8) * 255
    # the opening's level dips into the pieces' shadows, so the board between two pieces a shadow's width apart
    # stood out as much as a piece and joined them (a skull and that board made a "pelvis"): a piece also
    # stands clear of the board's own level, the darkest tile average around (the lightest, for dark pieces)
    tiles = cv2.resize(gray, None, fx=1 / BOARD_TILE, fy=1 / BOARD_TILE, interpolation=cv2.INTER_AREA)
    around = np.ones((BOARD_AROUND, BOARD_AROUND), np.uint8)
    board = cv2.resize(
        cv2.erode(tiles, around) if light else cv2.dilate(tiles, around),
        (gray.shape[1], gray.shape[0]),
        interpolation=cv2.INTER_LINEAR,
    ).astype(np.int16)
    grey = gray.astype(np.int16)  # signed: darker than the board is below 0
    mask[((grey - board) if light else (board - grey)) <= ABOVE_BOARD] = 0
    mask = np.asarray(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8)), np.uint8)
    # fill small holes (eye sockets, pattern) but keep the shape's own openings
    _fill_small_holes(mask, SMALL_HOLE)
    # grave outlines and board print are thin lines: an opening removes them, pieces stay
    return _opened(mask, line)


def _median_of_bytes(image: np.ndarray) -> float:
    """``np.median`` of an 8-bit image, from its histogram (a partial sort of half a million px is slower)."""
    counts = np.cumsum(np.bincount(image.ravel(), minlength=256))
    n = int(counts[-1])
    low, high = (int(np.searchsorted(counts, rank, side="right")) for rank in ((n - 1) // 2, n // 2))
    return (low + high) / 2


def _fill_small_holes(mask: np.ndarray, most: int) -> None:
    """Sets the mask's 4-connected background areas of fewer than ``most`` px (at the photo's edge too). Found as
    the holes of the mask's outlines (a frame of mask round it makes every such area one), a few times faster than
    labelling the whole background."""
    framed = cv2.copyMakeBorder(mask, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=255)
    contours, hierarchy = cv2.findContours(framed, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    for contour, (_, _, _, parent) in zip(contours, hierarchy[0] if hierarchy is not None else []):
        x, y, w, h = cv2.boundingRect(contour)
        if parent == -1 or w + h > most + 5:
            continue  # an outer outline, or a hole too wide to hold fewer than ``most`` px (its outline: 2 px more)
        inside = np.zeros((h, w), np.uint8)
        cv2.drawContours(inside, [contour - (x, y)], -1, 255, -1)
        inside[framed[y : y + h, x : x + w] > 0] = 0
        n, labels, stats, _ = cv2.connectedComponentsWithStats(inside, connectivity=4)  # (a hole in an island in it)
        small = np.zeros(n, bool)
        small[1:] = stats[1:, cv2.CC_STAT_AREA] < most
        framed[y : y + h, x : x + w][small[labels]] = 255
    mask[:] = framed[1:-1, 1:-1]


def _slope_round(gray: np.ndarray, contour: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The grey level's slope over a blob's box (a px more each way), and its outline in that box's px."""
    x, y, w, h = cv2.boundingRect(contour)
    x0, y0 = max(0, x - 1), max(0, y - 1)
    return slope(gray[y0 : y + h + 1, x0 : x + w + 1]), contour - (x0, y0)


def _cut_all_round(gray: np.ndarray, contour: np.ndarray) -> bool:
    """Whether a blob's outline is a cut edge (its median slope, at least CUT_EDGE): a piece's card steps all
    round it; a lamp's reflection on the board, bright enough to stand out, has no edge."""
    steep, outline = _slope_round(gray, contour)
    return float(np.median(steep[outline[:, 0, 1], outline[:, 0, 0]])) >= CUT_EDGE


def _has_a_cut_edge(gray: np.ndarray, contour: np.ndarray) -> bool:
    """Whether a cut edge lies anywhere in a blob (its steepest STEEPEST % at least CUT_EDGE): a reflection over
    pieces or print keeps their edges inside it; one on bare board has none."""
    steep, outline = _slope_round(gray, contour)
    inside = np.zeros(steep.shape, np.uint8)
    cv2.drawContours(inside, [outline], -1, 255, -1)
    return percentile_at_least(steep[inside > 0], STEEPEST, CUT_EDGE)


def _pieces_seen(gray: np.ndarray, mask: np.ndarray, inside: bool = True) -> list[Shape]:
    """The blobs of a working-scale grey photo's mask cut out all round (a piece, as enrollment wants one);
    ``inside``: clear of the photo's edge only."""
    return [s for s in shapes_in_mask(mask) if _cut_all_round(gray, s.outline) and not (inside and s.at_border)]


def _opened(mask: np.ndarray, line: int = LINE) -> np.ndarray:
    """The mask without lines thinner than ``line`` px: too thin to be part of a piece."""
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (line, line)))


def _too_fine(gray: np.ndarray, light: bool) -> bool:
    """Whether an enrollment photo whose mask holds no piece holds one, alone and clear of the photo's edge, with
    thinner lines let be: a piece whose print is as fine as the board's own lines, which the reader cannot tell it
    from (a bare board shows its grave outlines so: several, or running off the photo)."""
    return len(_pieces_seen(gray, _mask_of(gray, light, FINE_LINE))) == 1


@dataclass
class Shape:
    center: tuple[float, float]  # full-resolution px
    features: np.ndarray
    area: float
    at_border: bool = False  # touches the photo's edge: part of it may be out of view
    contour: np.ndarray | None = None  # its outline in the work mask (half resolution)

    @property
    def outline(self) -> np.ndarray:
        """Its contour: every shape found in a photo has one (a hand-made one, a test's, may not)."""
        if self.contour is None:
            raise ValueError("a shape made without its outline")
        return self.contour


@dataclass
class Outlines:
    """Enrolled pieces described with their gaps closed: standardised features, each one's type, the
    standardisation, and each type's largest and smallest area (full-res px)."""

    features: np.ndarray
    labels: list[str]
    mean: np.ndarray
    scale: np.ndarray
    type_area: dict[str, float]
    type_min_area: dict[str, float]

    @classmethod
    def of(cls, pieces: list[tuple[str, Shape]]) -> Outlines:
        closed = [(kind, _gaps_closed(piece)) for kind, piece in pieces]
        x = np.stack([shape.features for _, shape in closed])
        mean, scale = x.mean(axis=0), np.maximum(x.std(axis=0), MIN_SPREAD)
        areas = _ranges([(kind, shape.area) for kind, shape in closed])
        return cls(
            (x - mean) / scale,
            [kind for kind, _ in closed],
            mean,
            scale,
            {k: high for k, (_, high) in areas.items()},
            {k: low for k, (low, _) in areas.items()},
        )

    def name(self, shape: Shape) -> str | None:
        """The type the blob clearly is with its gaps closed, of one piece's size, else None."""
        closed = _gaps_closed(shape)
        (kind, d1), (_, d2) = _nearest_types(self.features, self.labels, (closed.features - self.mean) / self.scale)[:2]
        size_ok = MIN_TYPE_AREA * self.type_min_area[kind] <= closed.area <= MAX_TYPE_AREA * self.type_area[kind]
        return kind if d1 <= MAX_MATCH and d2 >= MIN_RATIO * d1 and size_ok else None


def _gaps_closed(shape: Shape) -> Shape:
    """The blob with its holes filled and every gap in its outline narrower than GAP_CLOSED closed: a rib
    comb's gaps open on one board and close on the next (the light, the threshold), which moves its solidity
    and outline length far from every enrolled comb."""
    canvas, _ = filled_outline(shape.outline, pad=GAP_CLOSED)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (GAP_CLOSED, GAP_CLOSED))
    closed = cv2.morphologyEx(canvas, cv2.MORPH_CLOSE, kernel)
    return max(shapes_in_mask(closed, min_area=0), key=lambda found: found.area, default=shape)


def _nearest_types(features: np.ndarray, labels: list[str], x: np.ndarray) -> list[tuple[str, float]]:
    """Each type with the distance from standardised measures ``x`` to its nearest enrolled piece, nearest first."""
    dist, named = np.linalg.norm(features - x, axis=1), np.asarray(labels)
    best = {kind: float(dist[named == kind].min()) for kind in set(labels)}
    return sorted(best.items(), key=lambda kv: kv[1])


def shapes(image: np.ndarray, light: bool = True, min_area: float = MIN_BLOB, scale: float = 1.0) -> list[Shape]:
    return shapes_in_mask(_mask(image, light, scale), min_area)


def shapes_in_mask(mask: np.ndarray, min_area: float = MIN_BLOB) -> list[Shape]:
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    found = []
    for i, contour in enumerate(contours):
        if hierarchy is not None and hierarchy[0][i][3] != -1:
            continue  # a hole, counted with its outer shape
        area = cv2.contourArea(contour)
        (cx, cy), (a, b), _ = cv2.minAreaRect(contour)
        if area < min_area or min(a, b) < 6:
            continue
        holes = 0
        child = hierarchy[0][i][2] if hierarchy is not None else -1
        while child != -1:
            holes += cv2.contourArea(contours[child]) > 40
            child = hierarchy[0][child][0]
        hull = cv2.contourArea(cv2.convexHull(contour))
        hu = cv2.HuMoments(cv2.moments(contour)).ravel()[:4]
        hu = -np.sign(hu) * np.log10(np.abs(hu) + 1e-30)
        features = np.array(
            [
                np.log(area),
                np.log(max(a, b) / max(1.0, min(a, b))),
                area / max(hull, 1.0),
                np.log(cv2.arcLength(contour, True) ** 2 / area),
                min(holes, 6),
                *hu,
            ],
            np.float64,
        )
        x, y, w, h = cv2.boundingRect(contour)
        at_border = x <= 1 or y <= 1 or x + w >= mask.shape[1] - 1 or y + h >= mask.shape[0] - 1
        found.append(Shape((cx / WORK, cy / WORK), features, area / WORK**2, at_border, contour))
    return found


@dataclass
class PieceReader:
    features: np.ndarray  # (n, f) enrolled pieces
    labels: list[str]
    mean: np.ndarray
    scale: np.ndarray
    max_area: float
    light: bool = True  # pieces lighter than the board
    type_area: dict[str, float] | None = None  # largest enrolled photo of each type (full-res px)
    type_min_area: dict[str, float] | None = None  # smallest enrolled photo of each type (full-res px)
    photos: int = 0  # enrollment photos (each adds a few variants of its piece)
    closed: Outlines | None = None  # the enrolled pieces with their gaps closed (sets saved before: None)
    thickness: dict[str, tuple[float, float]] | None = None  # per type, thinnest and thickest enrolled (before: None)
    silhouettes: Silhouettes | None = None  # the enrolled pieces laid alike (sets saved before: None)
    tiler: Tiler | None = None  # the enrolled pieces' silhouettes at size, to tile blobs with (sets saved before: None)
    # whether the last photo read as taken was evened: the camera stays put, so the next one likely is too (kept
    # for the reading's order only, never saved)
    evened_last: bool = field(default=False, compare=False, repr=False)

    @classmethod
    def enroll(cls, folder: str | Path, board: Board | None = None) -> PieceReader:
        """Learn the pieces from DIR/<type>/*.jpg, one piece a photo: photos cut round the piece, taken straight
        down at the reading's scale; or, given the board, the table camera's whole frames, the piece anywhere on
        the board (each frame warped flat as the reading is, so the camera's tilt does not change the sizes)."""
        feats, labels = [], []
        pieces: list[tuple[str, Shape]] = []
        scale = WORK if board is not None else 1.0
        photos = [
            (kind, path, _flat(board, image, path) if board is not None else image)
            for kind, path, image in enrollment_photos(Path(folder), PIECE_TYPES, "piece")
        ]
        greys = [_working_grey(image, scale) for _, _, image in photos]
        behind = _board_behind(greys) if board is None else None
        if board is not None:
            light = _lighter_in_frames(greys)
        else:
            light = _lighter_than_board(photos[0][2]) if behind is None else _lighter_than_behind(greys, behind)
        for (kind, path, image), gray in zip(photos, greys):
            if behind is not None:  # a whole frame: its board's markers are no piece, however the light moved on them
                gray = _markers_painted_over(gray, image)
            mask = _mask_of(gray, light)
            # (on a whole frame warped flat, what touches its edge is the board's margin, not a piece)
            found = sorted(_pieces_seen(gray, mask, inside=board is not None), key=lambda s: -s.area)
            if behind is not None and len(found) > 1:  # a whole frame: its piece is what the other frames lack
                found = [shape for shape in found if _changed_share(shape, gray, behind) >= OWN_PIECE] or found
            if not found and _too_fine(gray, light):
                raise BadInput(
                    f"{path}: the piece's printed lines are too thin to tell from the board's own print:"
                    " count these pieces on the page"
                )
            if not found:
                raise BadInput(f"{path}: no piece found in the photo")
            if len(found) > 1 and found[1].area > 0.3 * found[0].area:
                raise BadInput(f"{path}: expected one piece in the photo, found {len(found)}")
            pieces.append((kind, found[0]))
            for variant in _variants(mask, found[0]):
                feats.append(variant.features)
                labels.append(kind)
        x, seen = np.stack(feats), np.stack([piece.features for _, piece in pieces])
        areas = _ranges([(kind, piece.area) for kind, piece in pieces])
        thickness = _ranges([(kind, _shaft_thickness(piece.outline)) for kind, piece in pieces])
        # Standardise by the photos themselves: the variants fill in between, they do not widen the scale.
        # A measure the photos do not vary (no enrolled piece has a hole) still gets a spread: one hole more
        # must not make a piece a million spreads away from everything.
        mean, scale = seen.mean(axis=0), np.maximum(seen.std(axis=0), MIN_SPREAD)
        return cls(
            (x - mean) / scale,
            labels,
            mean,
            scale,
            float(max(piece.area for _, piece in pieces)),
            bool(light),
            {k: high for k, (_, high) in areas.items()},
            {k: low for k, (low, _) in areas.items()},
            len(pieces),
            Outlines.of(pieces),
            thickness,
            Silhouettes.of(pieces),
            Tiler.of([(kind, filled_outline(piece.contour)[0]) for kind, piece in pieces if piece.contour is not None]),
        )

    def save(self, name: str) -> Path:
        return save_set(
            "pieces",
            name,
            {
                "features": self.features,
                "labels": np.array(self.labels),
                "mean": self.mean,
                "scale": self.scale,
                "max_area": self.max_area,
                "light": self.light,
                "type_area": np.array([(self.type_area or {}).get(t, self.max_area) for t in PIECE_TYPES]),
                "type_min_area": np.array([(self.type_min_area or {}).get(t, 0.0) for t in PIECE_TYPES]),
                **_closed_arrays(self.closed),
                **_thickness_arrays(self.thickness),
                **(self.silhouettes.arrays() if self.silhouettes else {}),
                **(self.tiler.arrays() if self.tiler else {}),
            },
            {"photos": self.photos, "shapes": len(self.labels), "types": list(PIECE_TYPES)},
        )

    @classmethod
    def load(cls, name: str) -> PieceReader:
        d = load_set("pieces", name, "piece")
        type_area = dict(zip(PIECE_TYPES, map(float, d["type_area"]))) if "type_area" in d else None
        # sets saved before the smallest sizes were kept read as before (no smallest-size check)
        type_min_area = dict(zip(PIECE_TYPES, map(float, d["type_min_area"]))) if "type_min_area" in d else None
        return cls(
            d["features"],
            [str(x) for x in d["labels"]],
            d["mean"],
            d["scale"],
            float(d["max_area"]),
            bool(d["light"]),
            type_area,
            type_min_area,
            closed=_closed_from(d),
            thickness=_thickness_from(d),
            silhouettes=Silhouettes.from_arrays(d),
            tiler=Tiler.from_arrays(d),
        )

    def classify(self, shape: Shape) -> tuple[str | None, str]:
        """The blob's type, or None and why not. A blob the mask may have made unlike its piece (like no enrolled
        piece; smaller than any of its type; bigger than any of a type with gaps in its outline) gets a second
        look with its gaps closed, as the enrolled pieces are then: a rib comb's gaps open on one board and
        close on the next, a striped arm's stripes cut into it. Not a blob too big for a solid type: closing
        would hide the overlap."""
        kind, why, second_look = self._as_outlined(shape)
        if (
            kind is None
            and second_look
            and self.closed is not None
            and shape.contour is not None
            and (named := self.closed.name(shape))
        ):
            kind, why = named, ""
        # its measures can be a piece's while its outline is not: a limb along another, their union a "leg"
        if kind and self.silhouettes and shape.contour is not None:
            slack, least = GAPPED_FIT if self._has_gaps(kind) else self._solid_fit(kind)
            if self.silhouettes.fit(shape, kind, slack) < least:
                return None, f"not outlined like any enrolled {kind}: pieces overlap?"
        return kind, why

    def _as_outlined(self, shape: Shape) -> tuple[str | None, str, bool]:
        """The type its outline as found says, or None, why not, and whether the gaps-closed look may tell."""
        if shape.area > MAX_TYPE_AREA * self.max_area:  # bigger than the largest piece of any type
            return None, "pieces overlap", False
        ranked = _nearest_types(self.features, self.labels, (shape.features - self.mean) / self.scale)
        (kind, d1), (_, d2) = ranked[0], ranked[1]
        if d1 > MAX_MATCH and not self._new_design(shape, kind, d1, d2):
            return None, "not a piece we know (pieces overlap or half hidden?)", True
        if d2 < MIN_RATIO * d1:
            told = self._told_apart_by_thickness(shape, kind, ranked[1][0])
            if told is None:
                return None, f"{kind} or {ranked[1][0]}: too close to call", False
            kind = told
        if self.type_area and shape.area > MAX_TYPE_AREA * self.type_area[kind]:
            return None, f"bigger than any enrolled {kind}: pieces overlap?", self._has_gaps(kind)
        if self.type_min_area and shape.area < MIN_TYPE_AREA * self.type_min_area[kind]:
            return None, f"smaller than any enrolled {kind}: half hidden, or another piece?", True
        return kind, "", False

    def _solid_fit(self, kind: str) -> tuple[int, float]:
        """(slack, least fit) for a solid type: as strict as its enrolled pieces agree. Where they all lie on each
        other's outlines (a pelvis, a skull), a piece half over another of another type, their union shaped like
        this one, fits ~0.94 and is two; where they differ (limbs of several designs) SOLID_FIT's bar holds.
        Not for types with gaps: their gaps close in one photo and open in the next, so they agree less on the
        board than in their enrollment photos."""
        slack, least = SOLID_FIT
        agreed = self.silhouettes.agreement(kind, slack) if self.silhouettes else None
        if agreed is None:
            return slack, least
        return slack, float(np.clip(AGREED_FIT - AGREEMENT_WEIGHT * (1 - agreed), least, AGREED_FIT))

    def _has_gaps(self, kind: str) -> bool:
        """Are there gaps in the type's outline (its largest enrolled piece grows when they are closed: a rib
        comb, ~1.4x; the solid types, ~1.01x)? A comb whose gaps closed on the board is as big as that."""
        closed, enrolled = self.closed, self.type_area
        return closed is not None and enrolled is not None and closed.type_area[kind] > GAPPED * enrolled[kind]

    @staticmethod
    def _parts_inside_its_grave(mask: np.ndarray, shape: Shape, grave: np.ndarray) -> list[Shape]:
        """The parts of a blob inside the grave its centre is in, when the blob reaches beyond it and every part
        left is clear of the photo's edge; else none. A piece touching its grave's outline is joined through it
        to whatever touches the outline outside (the board's light margin, the next piece on the outline)."""
        if shape.contour is None:
            return []
        # on the blob's box first: most blobs lie (nearly) all inside their grave
        blob, (x, y) = filled_outline(shape.contour)
        h, w = blob.shape
        blob &= mask[y : y + h, x : x + w]
        inside = _grave_on(blob, grave, (x, y))
        if cv2.countNonZero(blob & inside) >= BEYOND * cv2.countNonZero(blob):
            return []
        cut = np.zeros_like(mask)  # the whole photo's frame: the parts' centres and edge contact
        # opened as the mask is: the outline's inner edge, cut along, is a sliver joining the parts
        cut[y : y + h, x : x + w] = _opened(blob & inside)
        parts = sorted(shapes_in_mask(cut), key=lambda s: -s.area)
        parts = [part for part in parts if part.area > 0.1 * parts[0].area]  # not scraps of the outline
        return [] if any(part.at_border for part in parts) else parts

    def _cut_where_touching(self, mask: np.ndarray, blob: Shape, deep: int = CUTS_DEEP) -> list[tuple[Shape, str]]:
        """A blob of pieces touching each other, cut where they touch: the shortest cut between two notches of
        its outline, no longer than a neck, that leaves each side a named piece (a side unnamed is cut again);
        [] when no cut does. Every side must be named and lie on an enrolled piece's outline, so a piece half
        under another (its visible part unlike any) stays unread."""
        if deep == 0 or blob.contour is None or not self.thickness or not self.type_area or len(blob.contour) < 8:
            return []
        longest = NECK * max(high for _, high in self.thickness.values())
        hull = cv2.convexHull(blob.contour, returnPoints=False)
        try:
            defects = cv2.convexityDefects(blob.contour, hull)
        except cv2.error:  # an outline that crosses itself
            return []
        if defects is None:
            return []
        notches = [
            tuple(blob.contour[far][0]) for _, _, far, depth in defects.reshape(-1, 4) if depth / 256 >= NOTCH_DEPTH
        ]
        cuts = sorted(
            (float(np.hypot(a[0] - b[0], a[1] - b[1])), a, b)
            for i, a in enumerate(notches)
            for b in notches[i + 1 :]
            if np.hypot(a[0] - b[0], a[1] - b[1]) <= longest
        )
        filled, (x, y) = filled_outline(blob.contour)
        h, w = filled.shape
        inside = filled & mask[y : y + h, x : x + w]
        for _, a, b in cuts:
            cut = inside.copy()
            cv2.line(cut, (a[0] - x, a[1] - y), (b[0] - x, b[1] - y), 0, 2)
            canvas = np.zeros_like(mask)
            canvas[y : y + h, x : x + w] = cut
            sides = shapes_in_mask(canvas)
            if len(sides) != 2 or sum(side.area for side in sides) < 0.9 * blob.area:
                continue  # not cut in two, or a scrap cut off
            named: list[tuple[Shape, str]] = []
            for side in sides:
                kind, _ = self.classify(side)
                if kind is not None and side.area <= CUT_SIDE_AREA * self.type_area[kind]:
                    pieces = [(side, kind)]  # a whole piece
                else:
                    pieces = self._cut_where_touching(canvas, side, deep - 1)
                if not pieces:
                    break  # a side that is no piece, nor pieces: not this cut
                named += pieces
            else:
                return named
        return []

    def _told_apart_by_thickness(self, shape: Shape, a: str, b: str) -> str | None:
        """Of two types a blob's outline is about as like, the one its thickness fits, when it is clearly
        outside the other's (an arm is a leg's shape, thinner; a skull's outline can be a pelvis's, thicker);
        None when thickness does not tell (types as thick as each other, or no thicknesses enrolled)."""
        if not self.thickness or shape.contour is None or a not in self.thickness or b not in self.thickness:
            return None
        thick, thickness = _shaft_thickness(shape.contour), self.thickness

        def fits(kind: str, slack: float) -> bool:
            low, high = thickness[kind]
            return low * (1 - slack) <= thick <= high * (1 + slack)

        fitting = [
            kind for kind, other in ((a, b), (b, a)) if fits(kind, THICKNESS_SLACK) and not fits(other, THICKNESS_GAP)
        ]
        return fitting[0] if len(fitting) == 1 else None

    def _new_design(self, shape: Shape, kind: str, d1: float, d2: float) -> bool:
        """A piece unlike every enrolled one, but far less like any other type and of one piece's size: a design
        of that type the enrollment did not show (the ribs' combs vary most). Overlapping pieces and scraps
        are bigger or smaller, or about as unlike every type."""
        if not self.type_area:
            return False
        # as small as a named piece may be (the enrolled rib combs span 0.65-1x the largest: gaps open or closed)
        smallest = (
            MIN_TYPE_AREA * self.type_min_area[kind]
            if self.type_min_area
            else NEW_DESIGN_SIZE[0] * self.type_area[kind]
        )
        return (
            d1 <= FAR_MATCH
            and d2 >= FAR_RATIO * d1
            and smallest <= shape.area <= NEW_DESIGN_SIZE[1] * self.type_area[kind]
        )

    def _pieces_in(
        self, gray: np.ndarray, mask: np.ndarray, blob: Shape, graves: dict[str, np.ndarray], spots: Spots | None
    ) -> tuple[list[tuple[Shape, str | None, str | None, str]], list[tuple[str, Shape]]]:
        """The pieces one blob is, each with its grave (None: outside every grave) and type (None: unreadable,
        and why); ``spots``: the finder's, which must confirm a cut or the light taken off (None: not asked).
        Also the pieces the outlines alone name in it (as without ``spots``): what a photo's level is measured on,
        the same whether the finder is asked or not."""
        kind, why = self.classify(blob)
        grave = grave_of(blob, graves)
        # a blob reaching beyond its grave is judged inside it too: a piece touching the outline is joined to
        # what lies beyond (an arm and a scrap of the board's margin looked like a leg; two pieces on the outline
        # joined through the margin)
        parts = self._parts_inside_its_grave(mask, blob, graves[grave]) if grave is not None else []
        named = [(part, grave, *self.classify(part)) for part in parts]
        if kind is None and named and all(part_kind for _, _, part_kind, _ in named):
            # (what it touched beyond, cut off)
            return named, [(part_kind, part) for part, _, part_kind, _ in named if part_kind]
        cut = self._cut_where_touching(mask, blob) if kind is None and not parts and not blob.at_border else []
        outlined = [(part_kind, part) for part, part_kind in cut]
        if cut and (spots is None or _confirmed(cut, spots())):
            return [(part, grave_of(part, graves), part_kind, "") for part, part_kind in cut], outlined
        # a piece the light joined to the board or another: only where the finder sees each piece, and no other
        if kind is None and not blob.at_border and spots and (unlit := self._without_the_light(gray, blob, spots())):
            if _confirmed(unlit, spots()) and _all_seen(blob, unlit, spots()):
                return [(part, grave_of(part, graves), part_kind, "") for part, part_kind in unlit], outlined
        if kind and len(named) == 1 and named[0][2] and named[0][2] != kind:
            kind, why = None, f"{kind} or {named[0][2]}: it touches its grave's outline"
        # an unknown blob at the photo's edge: say what to do (move the piece or the camera). A piece named
        # though it touches the edge stays named: most such pieces are whole
        if kind is None and blob.at_border:
            why = "half outside the frame"
        return [(blob, grave, kind, why)], outlined + ([(kind, blob)] if kind else [])

    def _without_the_light(self, gray: np.ndarray, blob: Shape, spots: list[PieceSpot]) -> list[tuple[Shape, str]]:
        """The pieces of a blob a lamp's reflection on the board joined together (or to a grave's line), each named
        and cut out all round, once the light is taken off (``_unlit``); [] when nothing was lit or a part is no
        piece the set knows. A part the outlines cannot name (the light frays its outline) is named by the finder
        when it is sure of the one piece there and the part is that piece's size (``_found_in``)."""
        if blob.contour is None:
            return []
        kept = _unlit(gray, blob.contour)
        if np.count_nonzero(kept) > LIT_OFF * cv2.contourArea(blob.contour):
            return []
        parts = [
            (part, self.classify(part)[0] or _one_found(self._found_in(part, spots))) for part in shapes_in_mask(kept)
        ]
        if not parts or any(kind is None or not _cut_all_round(gray, part.outline) for part, kind in parts):
            return []
        return [(part, kind) for part, kind in parts if kind is not None]

    def _spots(self, gray: np.ndarray) -> Spots | None:
        """The finder's pieces in a working-scale grey image, its median type's largest enrolled piece the size it
        learned (None, not asked, for a set saved without sizes), found when first asked for: about every arm and leg,
        and about blobs the outlines cannot read."""
        if not self.type_area:
            return None
        piece_area = float(np.median(list(self.type_area.values()))) * WORK**2
        return functools.cache(lambda: find_pieces(gray, piece_area))

    def _found_in(self, shape: Shape, spots: list[PieceSpot]) -> list[tuple[tuple[float, float], str]]:
        """The pieces (centre, full-res px, and type) the finder sees in a blob the outlines cannot read, when it is
        sure of each and the blob is as big as they are together; else none (an overlapping pair among them, a
        piece it is unsure of, a blob half out of view)."""
        if shape.contour is None or shape.at_border or not self.type_area or not self.type_min_area:
            return []
        inside = _spots_in(shape, spots)
        kinds = []
        for spot in inside:
            kind = _sure_type(spot)
            if spot.heats[OVERLAP] >= PAIR_SEEN or kind is None:
                return []
            kinds.append(kind)
        low = FILLED[0] * sum(self.type_min_area[k] for k in kinds)
        high = FILLED[1] * sum(self.type_area[k] for k in kinds)
        if not 0 < len(kinds) <= MOST_FOUND or not low <= shape.area <= high or self._seen_twice(inside, kinds):
            return []
        return [((x / WORK, y / WORK), kind) for (x, y), kind in zip((s.centre for s in inside), kinds)]

    def _seen_twice(self, spots: list[PieceSpot], kinds: list[str]) -> bool:
        """Whether two of the finder's pieces lie closer than two pieces side by side can (SIDE_BY_SIDE of their
        types' half thicknesses together): one piece it saw twice, as two types (a skull's peak and, two cells
        off, a pelvis's), which the blob's size cannot tell from the pieces' spread of sizes."""
        if not self.thickness:
            return False
        for i, (a, kind_a) in enumerate(zip(spots, kinds)):
            for b, kind_b in zip(spots[i + 1 :], kinds[i + 1 :]):
                apart = float(np.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1]))
                if apart < SIDE_BY_SIDE * (self.thickness[kind_a][0] + self.thickness[kind_b][0]) / 2:
                    return True
        return False

    def _tiled(self, mask: np.ndarray, shape: Shape, spots: list[PieceSpot]) -> list[tuple[tuple[float, float], str]]:
        """The pieces (centre, full-res px, and type) that tile a blob the outlines and the finder cannot read: pieces
        laid against each other, each lying whole inside it and clear of the others (piece_tiling.py); else none, and
        not looked for where the finder is sure of an overlapping pair (SURE_PAIR)."""
        if self.tiler is None or shape.contour is None or shape.at_border:
            return []
        if any(s.channel == OVERLAP and s.heats[OVERLAP] >= SURE_PAIR for s in _spots_in(shape, spots)):
            return []
        blob, (x, y) = filled_outline(shape.contour)
        blob &= mask[y : y + blob.shape[0], x : x + blob.shape[1]]  # (its holes: the board seen through it)
        return [(((p.centre[0] + x) / WORK, (p.centre[1] + y) / WORK), p.kind) for p in self.tiler.tile(blob)]

    def read(
        self,
        image: np.ndarray,
        graves: dict[str, np.ndarray],
        scale: float = 1.0,
        board_edge: bool = False,
        finder: bool = True,
    ) -> dict[str, Any]:
        """Each grave's pieces; ``scale``: the image's px per px of the graves (and of the centres reported);
        ``board_edge``: the image ends where the board does (warped flat): what is unknown there and outside
        every grave is the board's margin between a grave and its edge, not a piece cut by the frame;
        ``finder``: blobs the outlines cannot read are shown to the piece finder, then tiled by the enrolled pieces'
        silhouettes (False: the outlines alone).
        A photo read as taken whose pieces are sized unevenly (a tilted camera, or one at another height than at
        enrollment: size_field.py) is read again warped so that they are not; where its graves are drawn as
        rectangles, they say the tilt, the pieces only how far the camera is."""
        start = time.perf_counter()
        quads = [polygon * scale for polygon in graves.values()]
        corners = np.concatenate(quads)
        tilt = None if board_edge else SizeField.tilt_of(quads, *image.shape[1::-1])
        # a photo likely to be evened (a tilt it will be evened for whatever its level, or the last photo was): the
        # first read only measures the level, and the outlines alone say it (the finder is asked in the read that
        # counts); else the first read is likely the one that counts
        surveyed = not board_edge and (
            (tilt is not None and tilt.spread_at(corners) >= 2 * OTHER_HEIGHT) or self.evened_last
        )
        reading, sure = self._read_as(image, graves, scale, board_edge, finder and not surveyed)
        if not board_edge:
            sizes = self._size_field(sure, image, tilt)
            self.evened_last = sizes is not None and (sizes.uneven_at(corners) if tilt else sizes.uneven)
            if sizes is not None and self.evened_last:
                reading = self._read_evened(image, graves, scale, sizes, finder)
            elif surveyed and finder:  # (read as it is after all)
                reading, _ = self._read_as(image, graves, scale, board_edge, finder)
            reading["unreadable"] = _off_the_markers(reading["unreadable"], image, graves, scale)
        reading["ms"] = round((time.perf_counter() - start) * 1000, 1)
        return reading

    def _read_evened(
        self, image: np.ndarray, graves: dict[str, np.ndarray], scale: float, sizes: SizeField, finder: bool
    ) -> dict[str, Any]:
        """``_read_as`` of the photo warped so that ``sizes`` are even, its flags' centres back in the photo's px."""
        warp, size = sizes.evening()
        grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)  # (all the reading looks at)
        evened = cv2.warpPerspective(grey, warp, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        there = {name: moved(polygon * scale, warp).astype(np.float32) for name, polygon in graves.items()}
        reading, _ = self._read_as(evened, there, 1.0, False, finder)
        back = np.linalg.inv(warp)
        for flag in reading["unreadable"]:
            x, y = moved(np.array([flag["center"]]), back)[0] / scale
            flag["center"] = [round(float(x), 1), round(float(y), 1)]
        return reading

    def _size_field(
        self, sure: list[tuple[str, Shape]], image: np.ndarray, tilt: SizeField | None = None
    ) -> SizeField | None:
        """The plane of the pieces' sizes over the photo, from the pieces whose type their shape tells; with ``tilt``
        known (the graves'), only its level."""
        enrolled = self._enrolled_log_area
        log_sizes = [(shape.features[0] - enrolled[kind]) / 2 for kind, shape in sure]  # areas' log: 2x the sides'
        places = [shape.center for _, shape in sure]
        if tilt is not None:
            return tilt.levelled(log_sizes, places)
        return SizeField.fit(places, log_sizes, image.shape[1], image.shape[0])

    @functools.cached_property
    def _enrolled_log_area(self) -> dict[str, float]:
        """Per type, the median log area (working px) of its enrolled pieces."""
        logs = self.features[:, 0] * self.scale[0] + self.mean[0]
        labels = np.asarray(self.labels)
        return {kind: float(np.median(logs[labels == kind])) for kind in set(self.labels)}

    def _by_shape_alone(self, blobs: list[Shape]) -> list[tuple[str, Shape]]:
        """Blobs the outlines name nothing in, each named by every measure but its area where that is clear and a
        type its shape tells (SIZED_BY_SHAPE): with a camera raised or lowered since enrollment every piece is
        smaller or bigger than any enrolled, and a photo's level is measured on these instead."""
        named = [(self._shape_says(blob), blob) for blob in blobs]
        return [(kind, blob) for kind, blob in named if kind in SIZED_BY_SHAPE]

    def _shape_says(self, shape: Shape) -> str | None:
        """The type the shape's measures but its area say, when they say it clearly (MAX_MATCH, MIN_RATIO)."""
        x = ((shape.features - self.mean) / self.scale)[1:]
        (kind, d1), (_, d2) = _nearest_types(self.features[:, 1:], self.labels, x)[:2]
        return kind if d1 <= MAX_MATCH and d2 >= MIN_RATIO * d1 else None

    def _read_as(
        self, image: np.ndarray, graves: dict[str, np.ndarray], scale: float, board_edge: bool, finder: bool
    ) -> tuple[dict[str, Any], list[tuple[str, Shape]]]:
        """``read`` of the image as it is, and the pieces named whose type their shape tells (SIZED_BY_SHAPE)."""
        sure: list[tuple[str, Shape]] = []
        whole: list[tuple[str, Shape]] = []  # those of them a whole blob (not a part cut from one)
        unnamed: list[Shape] = []  # whole blobs the outlines name nothing in
        counts = {name: {t: 0 for t in PIECE_TYPES} for name in graves}
        outside = {t: 0 for t in PIECE_TYPES}
        unreadable = []
        gray = _working_grey(image, scale)
        mask = _mask_of(gray, self.light)
        spots = self._spots(gray) if finder else None
        for blob in shapes_in_mask(mask):
            if not _has_a_cut_edge(gray, blob.outline):
                continue  # light on the board, not a piece
            pieces, outlined = self._pieces_in(gray, mask, blob, graves, spots)
            sure += [(kind, shape) for kind, shape in outlined if kind in SIZED_BY_SHAPE]
            whole += [(kind, shape) for kind, shape in outlined if kind in SIZED_BY_SHAPE and shape is blob]
            if not outlined and not blob.at_border:
                unnamed.append(blob)
            for shape, grave, kind, why in pieces:
                if kind in LIMBS and spots and (other := _limb_in_doubt(shape, kind, spots())):
                    kind, why = None, f"{kind} or {other}: its outline and the piece finder disagree"
                if kind and spots and _a_pair_not_a_piece(shape, kind, spots()):
                    kind, why = None, f"pieces overlap? outlined like a {kind}, the piece finder sees two across"
                if kind is None and board_edge and shape.at_border and grave is None:
                    continue
                if (
                    kind is None
                    and spots
                    and (found := self._found_in(shape, spots()) or self._tiled(mask, shape, spots()))
                ):
                    for centre, found_kind in found:
                        at = grave_at(centre, graves)
                        (counts[at] if at is not None else outside)[found_kind] += 1
                    continue
                if kind is None:
                    for x, y in _flag_places(shape, graves, grave):
                        unreadable.append({"center": [round(x, 1), round(y, 1)], "why": why})
                    continue
                (counts[grave] if grave is not None else outside)[kind] += 1
        reading = {"graves": counts, "outside": {t: n for t, n in outside.items() if n}, "unreadable": unreadable}
        return reading, self._level_measured_on(sure, whole, unnamed)

    def _level_measured_on(
        self, sure: list[tuple[str, Shape]], whole: list[tuple[str, Shape]], unnamed: list[Shape]
    ) -> list[tuple[str, Shape]]:
        """The pieces a photo's level is measured on: its whole blobs named by their outline or, unnamed, by their
        shape alone, when there are enough for a plane (MIN_SURE): a part is cut from a blob at the sizes enrolled,
        so with the camera lowered a big pelvis cut at its waist gives two "skulls" of the enrolled size. Else every
        piece the outlines name (touching pieces' parts are most of a crowded board's), and with too few of those
        (the camera raised or lowered), those the shape alone names too."""
        by_shape: list[tuple[str, Shape]] | None = None  # named only when needed (most photos need none)
        if len(sure) - len(whole) > len(whole):
            by_shape = self._by_shape_alone(unnamed)
            if len(whole) + len(by_shape) >= MIN_SURE:
                return whole + by_shape
        if len(sure) >= MIN_LEVEL:
            return sure
        return sure + (self._by_shape_alone(unnamed) if by_shape is None else by_shape)


def _one_found(found: list[tuple[tuple[float, float], str]]) -> str | None:
    """The type of the one piece the finder found, if it found one alone."""
    return found[0][1] if len(found) == 1 else None


def _unlit(gray: np.ndarray, contour: np.ndarray) -> np.ndarray:
    """A blob's mask less the light on the board joined to it: what its outline reaches where the outline is soft,
    crossing no cut edge (a reflection's slope is 0.5-5 grey levels a px, a card's edge 40-67: CUT_EDGE between),
    and what lies farther than LIT_NEAR from the pieces' own flat card (a grave's printed line the light joined)."""
    steep, outline = _slope_round(gray, contour)  # (over the blob's box)
    inside = np.zeros(steep.shape, np.uint8)
    cv2.drawContours(inside, [outline], -1, 1, -1)
    free = (inside > 0) & (steep < CUT_EDGE)
    rim = (inside - cv2.erode(inside, np.ones((3, 3), np.uint8))) > 0
    _, labels = cv2.connectedComponents(free.astype(np.uint8), connectivity=4)
    soft_rim = np.bincount(labels[rim & free], minlength=labels.max() + 1)
    lit = np.zeros(labels.shape, bool)
    for label in np.flatnonzero(soft_rim[1:]) + 1:
        part = labels == label
        around = cv2.dilate(part.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
        met = np.count_nonzero(around & rim)  # the blob's outline where the part meets it
        if soft_rim[label] >= min(LIT_RIM, LIT_RIM_SHARE * met):
            lit |= part
    card = (free & ~lit).astype(np.uint8)
    near = cv2.dilate(card, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (LIT_NEAR, LIT_NEAR))) > 0
    kept = np.zeros(gray.shape[:2], np.uint8)
    x0, y0 = (contour.reshape(-1, 2) - outline.reshape(-1, 2))[0]
    kept[y0 : y0 + steep.shape[0], x0 : x0 + steep.shape[1]] = ((inside > 0) & ~lit & near) * np.uint8(255)
    return _opened(kept)


def _sure_type(spot: PieceSpot) -> str | None:
    """The type the finder is sure of at a spot (FOUND, its next likeliest under CLEAR), else None."""
    first, second = np.sort(spot.heats[:OVERLAP])[::-1][:2]
    return PIECE_TYPES[int(np.argmax(spot.heats[:OVERLAP]))] if first >= FOUND and second < CLEAR else None


def _limb_in_doubt(shape: Shape, kind: str, spots: list[PieceSpot]) -> str | None:
    """For a blob the outline names an arm or a leg, the other limb when the finder is sure of it there and not of
    ``kind``, else None: an arm is a leg's shape, thinner and shorter, and a tilt or a card's margin can mislead the
    outline's measures (a white card's arm, tilted, was counted a leg), where the finder sees the whole piece."""
    other = LIMBS[1 - LIMBS.index(kind)]
    sure = {_sure_type(s) for s in _spots_in(shape, spots)}
    return other if other in sure and kind not in sure else None


def _a_pair_not_a_piece(shape: Shape, kind: str, spots: list[PieceSpot]) -> bool:
    """Whether the finder sees an overlapping pair in a blob the outline names ``kind`` (PAIR_SEEN) and is not sure
    of a ``kind`` there (CONFIRMED): a rib card on top of another piece, nearly hiding it, fills the comb's
    outline (two fresh white boards' graves were silently one rib comb for a pair so)."""
    inside = _spots_in(shape, spots)
    pair = any(s.channel == OVERLAP and s.heats[OVERLAP] >= PAIR_SEEN for s in inside)
    return pair and not any(s.heats[PIECE_TYPES.index(kind)] >= CONFIRMED for s in inside)


def _confirmed(cut: list[tuple[Shape, str]], spots: list[PieceSpot]) -> bool:
    """Whether the finder is sure of each side of a cut blob's type there, and of nothing else in it: the
    outline's cut may name a side wrong (an arm cut off a leg with a scrap of it had a leg's size)."""
    for side, kind in cut:
        sure = [s for s in _spots_in(side, spots) if s.likelihood >= CONFIRMED]
        if not sure or any(s.channel != PIECE_TYPES.index(kind) for s in sure):
            return False
    return True


def _all_seen(blob: Shape, parts: list[tuple[Shape, str]], spots: list[PieceSpot]) -> bool:
    """Whether every piece the finder sees in a blob, however unsure, lies in one of the parts it was read as (none
    lost: the light's flood leaked into a touching arm through a soft px of its edge, and the arm was dropped)."""
    inside = {s.centre for part, _ in parts for s in _spots_in(part, spots)}
    return all(s.centre in inside for s in _spots_in(blob, spots))


def _spots_in(shape: Shape, spots: list[PieceSpot]) -> list[PieceSpot]:
    """The finder's spots within a blob's outline (both in working px)."""
    if shape.contour is None:
        return []
    return [s for s in spots if cv2.pointPolygonTest(shape.contour, s.centre, False) >= 0]


def _off_the_markers(
    flags: list[dict[str, Any]], image: np.ndarray, graves: dict[str, np.ndarray], scale: float
) -> list[dict[str, Any]]:
    """The flags but those outside every grave on one of the board's ArUco markers or its white margin (printed on
    the board, not pieces), each looked for round the flag only (MARKER_LOOK of the photo's short side each way)."""
    reach = int(MARKER_LOOK * min(image.shape[:2]))

    def on_the_board_print(flag: dict[str, Any]) -> bool:
        point = (flag["center"][0] * scale, flag["center"][1] * scale)
        return on_a_marker(image, point, reach, MARKER_MARGIN)

    return [f for f in flags if grave_at(tuple(f["center"]), graves) is not None or not on_the_board_print(f)]


def _flag_places(shape: Shape, graves: dict[str, np.ndarray], own: str | None) -> list[tuple[float, float]]:
    """Where (full-res px) an unreadable blob is flagged: its centre, and in every other grave it reaches into
    with a speck's worth of it (MIN_BLOB) its part's centre, so that no grave's count is taken without a look."""
    found = [shape.center] if own else []
    if shape.contour is not None:
        blob, corner = filled_outline(shape.contour)
        for name, outline in graves.items():
            if name == own:
                continue
            part = cv2.moments(blob & _grave_on(blob, outline, corner), True)
            if part["m00"] >= MIN_BLOB:
                x, y = part["m10"] / part["m00"] + corner[0], part["m01"] / part["m00"] + corner[1]
                found.append((x / WORK, y / WORK))
    return found or [shape.center]


def _grave_on(canvas: np.ndarray, grave: np.ndarray, corner: tuple[int, int]) -> np.ndarray:
    """The grave (full-res px) filled in on a canvas like ``canvas`` whose top-left lies at ``corner`` of the
    working-scale mask."""
    inside = np.zeros_like(canvas)
    cv2.fillPoly(inside, [np.round(grave * WORK).astype(np.int32) - np.array(corner)], 255)
    return inside


def grave_of(shape: Shape, graves: dict[str, np.ndarray]) -> str | None:
    """The grave the shape's centre is in (None: outside every grave)."""
    return grave_at(shape.center, graves)


def _ranges(values: list[tuple[str, float]]) -> dict[str, tuple[float, float]]:
    """Per type, the smallest and largest of its values (its enrolled pieces' areas, thicknesses)."""
    ranges: dict[str, tuple[float, float]] = {}
    for kind, value in values:
        low, high = ranges.get(kind, (value, value))
        ranges[kind] = (min(low, value), max(high, value))
    return ranges


def _shaft_thickness(contour: np.ndarray) -> float:
    """How thick a shape is (work px): twice the median depth of its distance transform's ridge, the line
    along its middle (a bone's shaft, not its knobbly ends, sets it)."""
    filled, _ = filled_outline(contour, pad=2)
    depth = cv2.distanceTransform(filled, cv2.DIST_L2, 5)
    ridge = (depth >= cv2.dilate(depth, np.ones((3, 3), np.uint8))) & (depth > 1)
    return 2 * float(np.median(depth[ridge])) if ridge.any() else 0.0


def _thickness_arrays(thickness: dict[str, tuple[float, float]] | None) -> dict[str, np.ndarray]:
    if not thickness:
        return {}
    return {"thickness": np.array([thickness.get(t, (0.0, 0.0)) for t in PIECE_TYPES], np.float64)}


def _thickness_from(d: Any) -> dict[str, tuple[float, float]] | None:
    if "thickness" not in d:
        return None  # a set saved before thicknesses were kept: no tie-break by thickness, as before
    return {t: (float(low), float(high)) for t, (low, high) in zip(PIECE_TYPES, d["thickness"]) if high > 0}


def _closed_arrays(closed: Outlines | None) -> dict[str, np.ndarray]:
    if closed is None:
        return {}
    return {
        "closed_features": closed.features,
        "closed_labels": np.array(closed.labels),
        "closed_mean": closed.mean,
        "closed_scale": closed.scale,
        "closed_type_area": np.array([closed.type_area.get(t, 0.0) for t in PIECE_TYPES]),
        "closed_type_min_area": np.array([closed.type_min_area.get(t, np.inf) for t in PIECE_TYPES]),
    }


def _closed_from(d: Any) -> Outlines | None:
    if "closed_features" not in d:
        return None  # a set saved before gaps were closed reads as before
    return Outlines(
        d["closed_features"],
        [str(x) for x in d["closed_labels"]],
        d["closed_mean"],
        d["closed_scale"],
        dict(zip(PIECE_TYPES, map(float, d["closed_type_area"]))),
        dict(zip(PIECE_TYPES, map(float, d["closed_type_min_area"]))),
    )


def _variants(mask: np.ndarray, piece: Shape) -> list[Shape]:
    """The enrolled piece as the reader may see it on a board: its outline a pixel fatter or
    thinner (light and focus move the threshold), and up to 10 % nearer or farther."""
    out = [piece]
    if piece.contour is not None:  # the piece alone: a whole frame's mask holds the board's markers and edges too
        own = np.zeros_like(mask)
        cv2.drawContours(own, [piece.contour], -1, 255, -1)
        mask = own & mask  # (its holes kept)
    kernel = np.ones((3, 3), np.uint8)
    for changed in (
        cv2.dilate(mask, kernel),
        cv2.erode(mask, kernel),
        cv2.resize(mask, None, fx=0.9, fy=0.9, interpolation=cv2.INTER_NEAREST),
        cv2.resize(mask, None, fx=1.1, fy=1.1, interpolation=cv2.INTER_NEAREST),
    ):
        found = sorted(shapes_in_mask(changed), key=lambda s: -s.area)
        if found and found[0].area > 0.5 * piece.area * (0.8 if changed.shape != mask.shape else 1):
            out.append(found[0])
    return out


def _lighter_than_board(image: np.ndarray, scale: float = 1.0) -> bool:
    """One piece on the board: the right polarity finds it as one solid blob, the wrong one as scraps."""

    def solidity(light: bool) -> float:
        mask = _mask(image, light, scale)
        n, _, stats, _ = cv2.connectedComponentsWithStats(mask)
        areas = stats[1:, cv2.CC_STAT_AREA] if n > 1 else np.array([0])
        return float(areas.max()) / max(1.0, float(areas.sum())) * float(areas.max())

    return solidity(True) >= solidity(False)


def _markers_painted_over(gray: np.ndarray, image: np.ndarray) -> np.ndarray:
    """A working-scale grey frame with the photo's ArUco markers and their white margins painted in the board's tone
    round them (a piece laid by a marker would join its margin)."""
    painted = gray.copy()
    for corners in markers_seen(image).values():
        paint_marker_over(painted, corners * WORK)
    return painted


def _board_behind(greys: list[np.ndarray]) -> np.ndarray | None:
    """The board behind whole frames of one fixed camera, each with its piece somewhere else: the frames' median,
    where every place shows the bare board in most of them (None: fewer than MIN_FRAMES, or photos of different
    sizes, cut round their pieces)."""
    if len(greys) < MIN_FRAMES or len({g.shape for g in greys}) != 1:
        return None
    return np.median(np.stack(greys), axis=0).astype(np.uint8)


def _changed_share(shape: Shape, gray: np.ndarray, behind: np.ndarray) -> float:
    """How much of a blob differs from the board behind it by CHANGED grey levels or more: most of a frame's own
    piece, little of the board's print (the same in every frame)."""
    blob, (x, y) = filled_outline(shape.outline)  # (the blob's own box, within the photo)
    region = (slice(y, y + blob.shape[0]), slice(x, x + blob.shape[1]))
    changed = cv2.absdiff(gray[region], behind[region]) >= CHANGED
    return float(changed[blob > 0].mean())


def _lighter_than_behind(greys: list[np.ndarray], behind: np.ndarray) -> bool:
    """Whole frames of one camera: their pieces lighter than the board behind them, where they differ from it."""
    total = 0.0
    for gray in greys:
        diff = gray.astype(np.int16) - behind
        total += float(diff[np.abs(diff) >= CHANGED].sum())
    return total >= 0


def _lighter_in_frames(greys: list[np.ndarray]) -> bool:
    """Whole frames warped flat (working-scale grey), one piece on each: lighter or darker than the board, as the
    way that finds one piece in more of them (the other finds the board's own darker fields and shadows, or scraps)."""

    def one_piece(light: bool) -> int:
        return sum(len(_pieces_seen(gray, _mask_of(gray, light))) == 1 for gray in greys)

    return one_piece(True) >= one_piece(False)


def _flat(board: Board, image: np.ndarray, path: Path) -> np.ndarray:
    """An enrollment frame warped flat, or a one-line error naming the photo."""
    try:
        return board.rectify(image, WORK)
    except BadInput as error:
        raise BadInput(f"{path}: {error}") from None


class ToRead(NamedTuple):
    """What the reader reads: an image, its graves, its px per px of the graves, and whether its edge is the
    board's own (a board warped flat) rather than the camera's frame."""

    image: np.ndarray
    graves: dict[str, np.ndarray]
    scale: float = 1.0
    board_edge: bool = False


def graves_to_read(data: Any, image: np.ndarray) -> ToRead:
    """The image the pieces are read in, its graves and its scale (px per px of the graves): the photo itself with
    GRAVES.json's graves in photo pixels (1), or (GRAVES.json in board form, see board.py) the board warped flat
    at the reader's working scale with its graves in board px (WORK: the warp makes the half-size image itself)."""
    board = board_of(data)
    if board is not None:
        graves = load_graves(data["graves"], np.zeros((board.size[1], board.size[0]), np.uint8))
        return ToRead(board.rectify(image, WORK), graves, WORK, board_edge=True)
    return ToRead(image, load_graves(data, image))


def graves_reading(reader: PieceReader, data: Any) -> Callable[[np.ndarray], tuple[dict[str, Any], np.ndarray, float]]:
    """The table's read of a photo with GRAVES.json's ``data``: the reading, the image read (the photo, or the board
    warped flat) and that image's px per px of the reading."""

    def read(image: np.ndarray) -> tuple[dict[str, Any], np.ndarray, float]:
        seen = graves_to_read(data, image)
        return reader.read(*seen), seen.image, seen.scale

    return read
