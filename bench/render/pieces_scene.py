"""Render Sepulchre board photos: skeleton pieces in graves, with ground truth (OpenCV only).

Covers: five piece types as flat cut-out shapes in 12 designs (colour, pattern,
size and proportions vary per design), mirrored limbs, any rotation, pieces
outside every grave, overlapping pairs (to be reported unreadable), pieces
laid against another (touching: each to be counted), a board
with four grave areas, light gradients, noise, slight perspective and blur.
``printed``: the pieces as die-cut card instead, a bone printed on each in one of
three art styles (PRINTS), the card cut round it with jigsaw tabs, and the graves
decorated; ``glare``: a lamp's highlight on a third of the glossy pieces and
sometimes on the board.
Does not cover: real photographed art, pieces standing up or curled.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import cv2
import numpy as np

from .placing import Window, turned_onto

W, H = 1920, 1080
TYPES = ("skull", "ribs", "pelvis", "arm", "leg")
GRAVES = {
    "north": (560, 40, 1360, 330),
    "south": (560, 750, 1360, 1040),
    "west": (40, 300, 520, 780),
    "east": (1400, 300, 1880, 780),
}
DESIGNS = [
    ((235, 235, 225), (60, 60, 60)),
    ((200, 220, 235), (40, 40, 90)),
    ((180, 200, 180), (20, 60, 20)),
    ((230, 210, 190), (90, 50, 30)),
    ((210, 210, 240), (120, 30, 30)),
    ((250, 245, 220), (30, 30, 30)),
    ((190, 190, 190), (10, 10, 10)),
    ((225, 235, 215), (60, 90, 30)),
    ((215, 195, 225), (80, 20, 80)),
    ((240, 225, 200), (30, 70, 120)),
    ((200, 230, 230), (20, 90, 90)),
    ((235, 220, 235), (70, 30, 100)),
]


def piece_mask(kind: str, design: int, mirror: bool, scale: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """(mask, art) of one piece, upright, on its own canvas; art = pattern lines inside the mask."""
    rnd = random.Random(design * 31 + TYPES.index(kind))
    s = scale * (1 + rnd.uniform(-0.06, 0.06))
    size = int(190 * s)
    mask = np.zeros((size, size), np.uint8)
    art = np.zeros_like(mask)
    c = size // 2
    u = s  # unit
    if kind == "skull":
        cv2.ellipse(mask, (c, int(c - 8 * u)), (int(34 * u), int(38 * u)), 0, 0, 360, 255, -1)
        cv2.rectangle(mask, (int(c - 20 * u), int(c + 14 * u)), (int(c + 20 * u), int(c + 40 * u)), 255, -1)
        for dx in (-14, 14):
            cv2.circle(art, (int(c + dx * u), int(c - 8 * u)), int(9 * u), 255, -1)
    elif kind == "ribs":
        cv2.rectangle(mask, (int(c - 5 * u), int(c - 48 * u)), (int(c + 5 * u), int(c + 48 * u)), 255, -1)
        for k in range(4):
            y = int(c - 36 * u + k * 22 * u)
            cv2.ellipse(mask, (c, y), (int(40 * u), int(13 * u)), 0, 180, 360, 255, int(9 * u))
    elif kind == "pelvis":
        cv2.ellipse(mask, (int(c - 24 * u), c), (int(26 * u), int(32 * u)), -20, 0, 360, 255, -1)
        cv2.ellipse(mask, (int(c + 24 * u), c), (int(26 * u), int(32 * u)), 20, 0, 360, 255, -1)
        for dx in (-24, 24):
            cv2.circle(art, (int(c + dx * u), int(c + 6 * u)), int(8 * u), 255, -1)
    else:
        length = (62 if kind == "arm" else 80) * u * (1 + rnd.uniform(-0.05, 0.05))
        width = (9 if kind == "arm" else 12) * u
        cv2.line(mask, (c, int(c - length)), (c, int(c + length)), 255, int(width * 2))
        cv2.circle(mask, (int(c - width * 0.9), int(c - length)), int(width * 1.4), 255, -1)
        cv2.circle(mask, (int(c + width * 0.9), int(c - length)), int(width * 1.0), 255, -1)
        end = (int(c + width * 1.2), int(c + length)) if kind == "arm" else (int(c + width * 2.2), int(c + length))
        cv2.ellipse(mask, end, (int(width * 1.9), int(width * 1.1)), 0, 0, 360, 255, -1)  # hand / foot
    pattern = rnd.choice(["stripes", "dots", "plain"])
    if pattern == "stripes":
        for y in range(0, size, max(4, int(10 * u))):
            cv2.line(art, (0, y), (size, y + size // 4), 255, 1)
    elif pattern == "dots":
        for _ in range(25):
            cv2.circle(art, (rnd.randrange(size), rnd.randrange(size)), 2, 255, -1)
    art &= mask
    if mirror:
        mask, art = mask[:, ::-1].copy(), art[:, ::-1].copy()
    return mask, art


# printed art styles: card, the bone printed on it, its ink (BGR). "night" is held out: dark card, light bone
PRINTS = {
    "cream": ((196, 220, 232), (228, 238, 244), (40, 62, 92)),
    "white": ((236, 236, 236), (214, 214, 214), (28, 28, 28)),
    "night": ((52, 46, 44), (212, 218, 220), (24, 24, 24)),
}
CARD = 7  # px of card round the printed bone, as die-cut
TAB = 8  # px: a jigsaw tab's radius
# where each type's jigsaw tabs are (degrees from the piece's top, clockwise; out: a knob, else a blank), the same
# for every design: the rules' skeletons "mix & match", so a type's pieces join the same neighbours the same way
TABS = {
    "skull": ((180, False),),
    "ribs": ((0, True), (180, False), (90, True), (270, True)),
    "pelvis": ((0, False), (150, True), (210, True)),
    "arm": ((0, True),),
    "leg": ((0, True),),
}


def printed_piece(kind: str, design: int, mirror: bool, style: str, scale: float = 1.0):
    """(mask, colour) of one die-cut card piece, upright on its own canvas: the bone of ``piece_mask`` printed in
    ``style`` (filled, outlined, its pattern as hatching), the card cut CARD px round it with the type's jigsaw
    tabs (a blank that would cut into the bone is a knob)."""
    bone, art = piece_mask(kind, design, False, scale)
    pad = 2 * (CARD + TAB)
    bone = cv2.copyMakeBorder(bone, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    art = cv2.copyMakeBorder(art, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    card = cv2.dilate(bone, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * CARD + 1, 2 * CARD + 1)))
    middle = np.argwhere(card > 0).mean(axis=0)[::-1]  # (x, y)
    r = TAB * scale
    for degrees, out in TABS[kind]:
        way = np.array([np.sin(np.radians(degrees)), -np.cos(np.radians(degrees))])
        reach = next(t for t in range(card.shape[0]) if not _inside(card, middle + way * (t + 1)))
        edge = middle + way * reach
        blank = np.zeros_like(card)
        cv2.circle(blank, tuple(int(v) for v in edge + way * r * 0.3), int(r), 255, -1)
        if not out and not (blank & cv2.dilate(bone, np.ones((5, 5), np.uint8))).any():
            card &= ~blank
        else:
            cv2.circle(card, tuple(int(v) for v in edge + way * r * 0.7), int(r), 255, -1)
            cv2.line(card, tuple(int(v) for v in edge), tuple(int(v) for v in edge + way * r * 0.7), 255, int(r))
    paper, fill, ink = (np.array(c, np.float32) for c in PRINTS[style])
    colour = np.zeros((*card.shape, 3), np.float32)
    colour[card > 0] = paper
    colour[bone > 0] = fill
    colour[(art > 0) & (bone > 0)] = 0.5 * fill + 0.5 * ink
    contours = cv2.findContours(bone, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)[0]
    cv2.drawContours(colour, contours, -1, tuple(float(v) for v in ink), max(2, int(2.5 * scale)))
    if mirror:
        card, colour = card[:, ::-1].copy(), colour[:, ::-1].copy()
    return card, colour


def _inside(mask: np.ndarray, point: np.ndarray) -> bool:
    x, y = int(round(point[0])), int(round(point[1]))
    return 0 <= y < mask.shape[0] and 0 <= x < mask.shape[1] and mask[y, x] > 0


SHADOW_REACH = 20  # px round a piece its shadow reaches: moved (6, 5) and blurred (sigma 4, 12 px)


def _placed(canvas: np.ndarray, x: float, y: float, angle: float, margin: int = 0) -> tuple[Window, np.ndarray]:
    """A piece's own square canvas (mask, art or colours) turned ``angle`` degrees and centred at (x, y) on the board:
    the board's window it covers (``margin`` px more round it) and the canvas warped into it."""
    return turned_onto(canvas, x, y, angle, W, H, margin)


def _on_board(window: Window, covered: np.ndarray) -> np.ndarray:
    """Where a piece lies on the board (H, W), from where it lies in its window."""
    on = np.zeros((H, W), bool)
    on[window] = covered
    return on


def _paste(
    img: np.ndarray, mask: np.ndarray, art: np.ndarray, design: int, x: float, y: float, angle: float
) -> np.ndarray:
    """A cut-out piece of ``design``: its body colour, ``art`` in its ink. Where it lies on the board."""
    body, ink = DESIGNS[design]
    window, wm = _shadowed(img, mask, x, y, angle)
    wa = _placed(art, x, y, angle, SHADOW_REACH)[1].astype(np.float32)[..., None] / 255
    colour = np.array(body, np.float32) * (1 - wa) + np.array(ink, np.float32) * wa
    img[window] = img[window] * (1 - wm) + colour * wm
    return _on_board(window, wm[..., 0] > 0.5)


def _shadowed(img: np.ndarray, mask: np.ndarray, x: float, y: float, angle: float) -> tuple[Window, np.ndarray]:
    """The shadow of a piece laid at (x, y) turned ``angle`` cast on ``img``; the piece's window (its shadow's
    reach round it) and its weight per px there (h, w, 1)."""
    window, placed = _placed(mask, x, y, angle, SHADOW_REACH)
    wm = placed.astype(np.float32)[..., None] / 255
    shadow = cv2.GaussianBlur(np.roll(wm[..., 0], (6, 5), axis=(0, 1)), (0, 0), 4)[..., None]
    img[window] = img[window] * (1 - 0.35 * shadow)
    return window, wm


def _paste_colour(
    img: np.ndarray, mask: np.ndarray, colour: np.ndarray, x: float, y: float, angle: float, glare: float = 0.0
) -> np.ndarray:
    """A piece (its mask and colours on its own canvas) laid at (x, y) turned ``angle``, its shadow under it;
    ``glare`` > 0: a lamp's highlight this strong across part of it. Where it lies on the board."""
    window, wm = _shadowed(img, mask, x, y, angle)
    placed = _placed(colour, x, y, angle, SHADOW_REACH)[1]
    if glare:
        placed += (255 - placed) * _highlight(x, y, colour.shape[0], glare, angle, window)[..., None]
    img[window] = img[window] * (1 - wm) + placed * wm
    return _on_board(window, wm[..., 0] > 0.5)


def _highlight(
    x: float, y: float, size: int, strength: float, seed: float, window: Window = (slice(0, H), slice(0, W))
) -> np.ndarray:
    """A soft bright ellipse (0-``strength``) somewhere over a piece ``size`` px across centred at (x, y), over the
    board's ``window``."""
    rnd = random.Random(round(seed * 1000))
    rows, cols = window
    spot = np.zeros((rows.stop - rows.start, cols.stop - cols.start), np.float32)
    cx, cy = x + rnd.uniform(-0.25, 0.25) * size, y + rnd.uniform(-0.25, 0.25) * size
    axes = (int(rnd.uniform(0.12, 0.3) * size), int(rnd.uniform(0.05, 0.15) * size))
    cv2.ellipse(spot, (int(cx) - cols.start, int(cy) - rows.start), axes, rnd.uniform(0, 180), 0, 360, 1.0, -1)
    return strength * cv2.GaussianBlur(spot, (0, 0), max(2.0, axes[1] / 2))


def _decorate(img: np.ndarray, base: np.ndarray, rng: random.Random) -> None:
    """A printed board's graves: an inner border line, a headstone and a cross outlined, flourishes in the
    corners, in a tone lighter than the field (thin print: a piece is thicker)."""
    tone = tuple(float(v) * 1.35 for v in base)
    for x0, y0, x1, y1 in GRAVES.values():
        cv2.rectangle(img, (x0 + 14, y0 + 14), (x1 - 14, y1 - 14), tone, 2)
        hx, hy = (x0 + 60, y0 + 60) if rng.random() < 0.5 else (x1 - 60, y1 - 110)
        cv2.ellipse(img, (hx, hy), (26, 26), 0, 180, 360, tone, 3)
        cv2.line(img, (hx - 26, hy), (hx - 26, hy + 50), tone, 3)
        cv2.line(img, (hx + 26, hy), (hx + 26, hy + 50), tone, 3)
        cv2.line(img, (hx - 26, hy + 50), (hx + 26, hy + 50), tone, 3)
        cv2.line(img, (hx - 10, hy + 6), (hx + 10, hy + 6), tone, 2)
        cv2.line(img, (hx, hy - 6), (hx, hy + 30), tone, 2)
        for cx, cy in ((x0 + 14, y0 + 14), (x1 - 14, y0 + 14), (x1 - 14, y1 - 14), (x0 + 14, y1 - 14)):
            cv2.circle(img, (cx, cy), 9, tone, 2)


def render_board(
    seed: int,
    pieces: int = 24,
    overlaps: int = 1,
    outside: int = 2,
    markers: bool = False,
    kind: str | None = None,
    touching: int = 0,
    printed: str | None = None,
    glare: bool = False,
    board_seed: int | None = None,
):
    """A board photo, its truth and its graves; ``kind``: every piece of that type (an enrollment frame);
    ``board_seed``: the board's colour and print drawn from this seed, not ``seed`` (one board under many frames);
    ``touching``: pieces laid against another in its grave (outlines touching, neither under the other);
    ``printed``: die-cut card pieces printed in that art style (PRINTS) on a board with decorated graves;
    ``glare``: a lamp's highlight on a third of the (printed) pieces and, on some boards, across the board."""
    only = kind
    rng = random.Random(seed)
    board_rng = rng if board_seed is None else random.Random(board_seed)
    nrng = np.random.default_rng(seed if board_seed is None else board_seed)
    base = np.array(board_rng.choice([(70, 80, 95), (60, 70, 60), (90, 90, 90), (50, 60, 80)]), np.float32)
    img = np.empty((H, W, 3), np.float32)
    img[:] = base
    img *= 1 + 0.05 * cv2.resize(nrng.normal(0, 1, (9, 16)), (W, H), interpolation=cv2.INTER_CUBIC)[..., None]
    for x0, y0, x1, y1 in GRAVES.values():
        cv2.rectangle(img, (x0, y0), (x1, y1), tuple(float(v) * 0.8 for v in base), -1)
        cv2.rectangle(img, (x0, y0), (x1, y1), (200, 200, 200), 3)
    if printed:
        _decorate(img, base * 0.8, board_rng)

    def cut(kind: str, design: int, mirror: bool) -> tuple[np.ndarray, np.ndarray]:
        """A piece's mask and paint: its art (a cut-out) or its colours (printed card)."""
        return printed_piece(kind, design, mirror, printed) if printed else piece_mask(kind, design, mirror)

    def lay(mask: np.ndarray, paint: np.ndarray, design: int, x: float, y: float, angle: float) -> np.ndarray:
        if not printed:
            return _paste(img, mask, paint, design, x, y, angle)
        shine = rng.uniform(0.5, 0.9) if glare and rng.random() < 1 / 3 else 0.0
        return _paste_colour(img, mask, paint, x, y, angle, shine)

    truth = {
        "graves": {g: {t: 0 for t in TYPES} for g in GRAVES},
        "outside": {t: 0 for t in TYPES},
        "pieces": [],
        "overlaps": [],
        "touching": [],
    }
    occupied = np.zeros((H, W), bool)
    laid = np.zeros((H, W), bool)  # the pieces alone, without the room kept round them
    crossed = np.zeros((H, W), bool)  # where the overlapping pairs lie
    # the overlapping pairs first, so that there is room for them
    for _ in range(overlaps):  # two pieces lying across each other, inside a grave
        grave = rng.choice(list(GRAVES))
        x0, y0, x1, y1 = GRAVES[grave]
        for _ in range(200):
            x, y = rng.uniform(x0 + 110, x1 - 140), rng.uniform(y0 + 110, y1 - 130)
            if not occupied[int(y) - 120 : int(y) + 140, int(x) - 120 : int(x) + 150].any():
                break
        else:
            continue  # no room left for an overlapping pair
        for k in range(2):
            kind = rng.choice(TYPES)
            mask, paint = cut(kind, rng.randrange(12), False)
            lay(mask, paint, rng.randrange(12), x + k * 30, y + k * 20, rng.uniform(0, 360))
        occupied[max(0, int(y) - 120) : int(y) + 140, max(0, int(x) - 120) : int(x) + 150] = True
        crossed[max(0, int(y) - 120) : int(y) + 140, max(0, int(x) - 120) : int(x) + 150] = True
        truth["overlaps"].append({"center": [round(x + 15, 1), round(y + 10, 1)], "grave": grave})
    plans = [("grave", None)] * pieces + [("outside", None)] * outside
    for where, _ in plans:
        kind = only or rng.choice(TYPES)
        design = rng.randrange(12)
        mask, paint = cut(kind, design, rng.random() < 0.5)
        for _ in range(200):
            if where == "grave":
                grave = rng.choice(list(GRAVES))
                x0, y0, x1, y1 = GRAVES[grave]
                x, y = rng.uniform(x0 + 70, x1 - 70), rng.uniform(y0 + 70, y1 - 70)
            else:
                grave = None
                x, y = rng.uniform(120, W - 120), rng.uniform(120, H - 120)
                if any(gx0 - 90 < x < gx1 + 90 and gy0 - 90 < y < gy1 + 90 for gx0, gy0, gx1, gy1 in GRAVES.values()):
                    continue
            angle = rng.uniform(0, 360)
            window, placed = _placed(mask, x, y, angle, ROOM)
            footprint = cv2.dilate(placed, np.ones((2 * ROOM + 1, 2 * ROOM + 1), np.uint8)) > 0
            if not (footprint & occupied[window]).any():
                break
        else:
            continue
        on = lay(mask, paint, design, x, y, angle)
        occupied[window] |= footprint  # (the piece itself within it)
        laid |= on
        _record(truth, kind, x, y, grave)
    for _ in range(touching):
        _lay_against(truth, laid, crossed, rng, only, cut, lay)
    if glare and rng.random() < 0.4:  # the lamp's reflection on the board itself, soft and wide
        img += (255 - img) * _highlight(rng.uniform(300, W - 300), rng.uniform(200, H - 200), 900, 0.35, rng.random())[
            ..., None
        ]
    if markers:
        for k, (mx, my) in MARKERS.items():  # printed on the board's corners (ArUco 4x4_50), a white margin round them
            cv2.rectangle(img, (mx - 45, my - 45), (mx + 45, my + 45), (235, 235, 235), -1)
            drawn = cv2.aruco.generateImageMarker(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), k, 70)
            img[my - 35 : my + 35, mx - 35 : mx + 35] = drawn[..., None].astype(np.float32) * 0.9 + 10
    ramp = np.linspace(rng.uniform(0.75, 1.0), rng.uniform(0.9, 1.15), W, dtype=np.float32)[None, :, None]
    img *= ramp
    img += nrng.normal(0, rng.choice([2, 4, 7]), img.shape)
    photo = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        photo = cv2.GaussianBlur(photo, (0, 0), 0.8)
    graves = {g: [[x0, y0], [x1, y0], [x1, y1], [x0, y1]] for g, (x0, y0, x1, y1) in GRAVES.items()}
    return photo, truth, graves


def _record(truth: dict, kind: str, x: float, y: float, grave: str | None) -> None:
    truth["pieces"].append({"type": kind, "center": [round(x, 1), round(y, 1)], "grave": grave})
    if grave:
        truth["graves"][grave][kind] += 1
    else:
        truth["outside"][kind] += 1


ROOM = 12  # px kept clear round a piece laid apart from the others
TOUCH = 4  # px: a piece laid against another comes this close to it, or closer (never over it)


def _lay_against(truth: dict, laid: np.ndarray, crossed: np.ndarray, rng: random.Random, only: str | None, cut, lay):
    """One more piece in a grave, against a piece already there: within TOUCH px of it, over none, and clear of
    the overlapping pairs (``crossed``); ``cut`` and ``lay`` make a piece and lay it on the board."""
    neighbours = [p for p in truth["pieces"] if p["grave"]]
    if not neighbours:
        return
    kind, design = only or rng.choice(TYPES), rng.randrange(12)
    mask, paint = cut(kind, design, rng.random() < 0.5)
    near = cv2.dilate(laid.astype(np.uint8), np.ones((2 * TOUCH + 1, 2 * TOUCH + 1), np.uint8)) > 0
    for _ in range(400):
        other = rng.choice(neighbours)
        x0, y0, x1, y1 = GRAVES[other["grave"]]
        x, y = other["center"][0] + rng.uniform(-150, 150), other["center"][1] + rng.uniform(-150, 150)
        if not (x0 + 70 < x < x1 - 70 and y0 + 70 < y < y1 - 70):
            continue
        angle = rng.uniform(0, 360)
        window, placed = _placed(mask, x, y, angle)
        on = placed > 127
        if (on & laid[window]).any() or not (on & near[window]).any() or (on & crossed[window]).any():
            continue
        laid |= lay(mask, paint, design, x, y, angle)
        _record(truth, kind, x, y, other["grave"])
        truth["touching"].append({"center": [round(x, 1), round(y, 1)], "against": other["center"]})
        return


FRAMES_PER_TYPE = 3  # whole-frame enrollment photos a type (tilted sets)
MARKERS = {0: (50, 50), 1: (W - 50, 50), 2: (W - 50, H - 50), 3: (50, H - 50)}  # marker id: its centre, board px


def tilted(photo: np.ndarray, seed: int, degrees: tuple[float, float] = (4, 15)) -> tuple[np.ndarray, np.ndarray]:
    """The flat board as a camera tilted by some degrees (and a little higher or lower) sees it: the photo and
    the board-to-photo homography. A pinhole camera turned about its centre: K R K^-1, then scaled to fit."""
    rng = random.Random(seed * 7 + 1)
    f = 1.1 * W  # px: about a 80-degree lens across the long side
    k = np.array([[f, 0, W / 2], [0, f, H / 2], [0, 0, 1]])
    tilt = np.radians(rng.uniform(*degrees))
    axis = rng.uniform(0, 2 * np.pi)
    rotation, _ = cv2.Rodrigues(np.array([np.cos(axis), np.sin(axis), 0.0]) * tilt)
    matrix = k @ rotation @ np.linalg.inv(k)
    corners = cv2.perspectiveTransform(np.array([[[0, 0], [W, 0], [W, H], [0, H]]], np.float64), matrix)[0]
    # the whole board in the frame and centred, the camera a little higher than when enrolled
    (x0, y0), (x1, y1) = corners.min(axis=0), corners.max(axis=0)
    scale = min(W / (x1 - x0), H / (y1 - y0)) * rng.uniform(0.9, 0.98)
    dx, dy = W / 2 - scale * (x0 + x1) / 2, H / 2 - scale * (y0 + y1) / 2
    fit = np.array([[scale, 0, dx], [0, scale, dy], [0, 0, 1]])
    matrix = fit @ matrix
    table = tuple(float(v) for v in rng.choice([(40, 45, 50), (90, 70, 50), (120, 120, 115)]))
    return cv2.warpPerspective(photo, matrix, (W, H), flags=cv2.INTER_LINEAR, borderValue=table), matrix


def render_single(seed: int, kind: str, printed: str | None = None):
    """An enrollment photo: one piece on the board, 420x420 around it (``printed``: a card in that art style)."""
    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    img = np.empty((H, W, 3), np.float32)
    img[:] = np.array(rng.choice([(70, 80, 95), (60, 70, 60), (90, 90, 90)]), np.float32) * 0.8
    if printed:
        mask, colour = printed_piece(kind, rng.randrange(12), rng.random() < 0.5, printed)
        _paste_colour(img, mask, colour, W / 2, H / 2, rng.uniform(0, 360))
    else:
        mask, art = piece_mask(kind, rng.randrange(12), rng.random() < 0.5)
        _paste(img, mask, art, rng.randrange(12), W / 2, H / 2, rng.uniform(0, 360))
    img += nrng.normal(0, 3, img.shape)
    photo = np.clip(img, 0, 255).astype(np.uint8)
    return photo[H // 2 - 210 : H // 2 + 210, W // 2 - 210 : W // 2 + 210]


def one_camera_frame(board_seed: int, kind: str, k: int, printed: str | None = None, glare: bool = False) -> np.ndarray:
    """The k-th whole enrollment frame of a ``kind`` piece on board ``board_seed``, every frame under one tilted
    camera (the piece in a grave or outside every grave, in turn)."""
    seed = board_seed * 19 + TYPES.index(kind) * 100 + k
    frame, _, _ = render_board(
        seed,
        pieces=k % 2,
        overlaps=0,
        outside=1 - k % 2,
        markers=True,
        kind=kind,
        board_seed=board_seed,
        printed=printed,
        glare=glare,
    )
    return tilted(frame, board_seed)[0]


def write_one_camera_frames(out: Path, board_seed: int, printed: str | None = None, glare: bool = False) -> Path:
    """``out/<type>/NN.jpg``: FRAMES_PER_TYPE of ``one_camera_frame`` a type, as `pieces enroll DIR` takes them."""
    for kind in TYPES:
        (out / kind).mkdir(parents=True, exist_ok=True)
        for k in range(FRAMES_PER_TYPE):
            frame = one_camera_frame(board_seed, kind, k, printed, glare)
            cv2.imwrite(str(out / kind / f"{k:02d}.jpg"), frame, [cv2.IMWRITE_JPEG_QUALITY, 80])
    return out


def write_set(
    out: Path,
    photos: int,
    first_seed: int,
    enroll_per_type: int = 0,
    tilt: bool = False,
    touching: int = 0,
    printed: str | None = None,
    glare: bool = False,
    one_camera: bool = False,
) -> None:
    """Board photos with their truths and graves.json; ``tilt``: the camera tilted 4-15 degrees, the board's corner
    markers printed, graves.json in board form, and each truth with its graves in that photo's pixels too;
    ``printed``, ``glare``: as ``render_board``; ``one_camera``: the whole enrollment frames all of one board
    under one camera (enroll-one-camera/), as a table's fixed camera takes them."""
    out.mkdir(parents=True, exist_ok=True)
    look = {"printed": printed, "glare": glare}
    for i in range(photos):
        seed = first_seed + i
        photo, truth, graves = render_board(seed, markers=tilt, touching=touching, **look)
        if tilt:
            photo, matrix = tilted(photo, seed)
            truth["graves_in_photo"] = {
                g: cv2.perspectiveTransform(np.array([p], np.float64), matrix)[0].round(1).tolist()
                for g, p in graves.items()
            }
            graves = {
                "board": {"size": [W, H], "markers": {str(k): list(c) for k, c in MARKERS.items()}},
                "graves": graves,
            }
        cv2.imwrite(str(out / f"board-{seed:05d}.jpg"), photo, [cv2.IMWRITE_JPEG_QUALITY, 88])
        (out / f"board-{seed:05d}.json").write_text(json.dumps(truth, indent=1))
        (out / "graves.json").write_text(json.dumps(graves, indent=1))
    for kind in TYPES if tilt and enroll_per_type else ():  # whole frames from the tilted camera, the piece anywhere
        folder = out / "enroll-frames" / kind
        folder.mkdir(parents=True, exist_ok=True)
        for k in range(FRAMES_PER_TYPE):
            seed = first_seed * 17 + TYPES.index(kind) * 100 + k
            where = "grave" if k % 2 else "outside"
            frame, _, _ = render_board(
                seed, pieces=where == "grave", overlaps=0, outside=where == "outside", markers=True, kind=kind, **look
            )
            cv2.imwrite(str(folder / f"{k:02d}.jpg"), tilted(frame, seed)[0], [cv2.IMWRITE_JPEG_QUALITY, 80])
    if tilt and enroll_per_type and one_camera:
        write_one_camera_frames(out / "enroll-one-camera", first_seed, printed, glare)
    for kind in TYPES if enroll_per_type else ():
        folder = out / "enroll" / kind
        folder.mkdir(parents=True, exist_ok=True)
        for k in range(enroll_per_type):
            cv2.imwrite(
                str(folder / f"{k:02d}.jpg"),
                render_single(first_seed * 13 + TYPES.index(kind) * 100 + k, kind, printed),
                [cv2.IMWRITE_JPEG_QUALITY, 90],
            )


if __name__ == "__main__":
    import argparse

    p = argparse.ArgumentParser(description="Regenerate a Sepulchre board photo set.")
    p.add_argument("out", type=Path)
    p.add_argument("--photos", type=int, default=8)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--enroll", type=int, default=12)
    p.add_argument(
        "--tilt", action="store_true", help="a camera tilted 4-15 degrees; corner markers; board-form graves"
    )
    p.add_argument("--touching", type=int, default=0, help="pieces a board laid against another in its grave")
    p.add_argument("--printed", choices=sorted(PRINTS), help="die-cut card pieces printed in this art style")
    p.add_argument("--glare", action="store_true", help="a lamp's highlight on a third of the printed pieces")
    a = p.parse_args()
    write_set(a.out, a.photos, a.seed, a.enroll, a.tilt, a.touching, a.printed, a.glare)
