"""Render table photos of the 18 bone dice, with ground truth, using OpenCV only.

What it models: a mat (felt colour and texture, optional ArUco corner markers)
seen by a 2304x1296 camera from 55-75 cm with up to 15 degrees of tilt (a
homography), 16 mm rounded dice in several colourings and art styles, dice
touching in clusters, cocked dice (top face tilted, a side face showing),
soft shadows, four kinds of light (warm room, hard overhead lamp, dim and
noisy, side window), focus/motion blur and JPEG compression.

What it does not: real 3D geometry, physically based light, dice stacked
on dice, specular glare from a glossy print. docs/vision.md says so too.
Photorealism (Blender, bpy) is the next step for the dev set.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import cv2
import numpy as np

from companion.games.rolling_bones.dice import FACE_IDS, FACES, KINDS

from .glyphs import glyph
from .placing import turned_onto

IMAGE_W, IMAGE_H = 2304, 1296
PX_PER_MM = 4.0  # the mat canvas before the camera's homography
DIE_MM = 16.0
MAT_MM = (620.0, 350.0)
LIGHTS = ("warm room", "overhead lamp", "dim noisy", "side window")
COLOURINGS = {  # body BGR, ink BGR
    "black": ((28, 26, 24), (235, 238, 240)),
    "ivory": ((200, 225, 235), (30, 30, 35)),
    "red": ((40, 40, 170), (235, 235, 235)),
    "blue": ((120, 60, 20), (230, 230, 230)),
}


@dataclass
class Die:
    face: str
    x: float
    y: float
    angle: float
    cocked: bool = False
    tilt_axis: float = 0.0


def _felt(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = np.array(rng.choice([(40, 90, 30), (60, 60, 60), (30, 50, 110), (90, 120, 140), (20, 40, 35)]), float)
    low = cv2.resize(rng.normal(0, 1, (h // 160 + 2, w // 160 + 2)), (w, h), interpolation=cv2.INTER_CUBIC)
    fine = rng.normal(0, 1, (h, w))
    shade = 1 + 0.04 * low[..., None] + 0.04 * fine[..., None]
    return np.clip(base * shade, 0, 255).astype(np.uint8)


def mat_canvas(nrng: np.random.Generator, markers: bool) -> np.ndarray:
    """The mat seen square-on at PX_PER_MM: felt, and the four ArUco corner markers if ``markers``."""
    w, h = int(MAT_MM[0] * PX_PER_MM), int(MAT_MM[1] * PX_PER_MM)
    canvas = _felt(nrng, h, w)
    if markers:
        dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
        side = int(40 * PX_PER_MM)
        for marker_id, (mx, my) in enumerate(
            [(20, 20), (w - 20 - side, 20), (w - 20 - side, h - 20 - side), (20, h - 20 - side)]
        ):
            tile = cv2.aruco.generateImageMarker(dictionary, marker_id, side - 2 * 16)
            canvas[my : my + side, mx : mx + side] = 255
            canvas[my + 16 : my + side - 16, mx + 16 : mx + side - 16] = tile[..., None]
    return canvas


def paper_mat(tint: tuple[float, float, float]) -> np.ndarray:
    """The mat as hardware/make_mat.py prints it (paper, markers, border line, words) at PX_PER_MM, ``tint``ed (BGR)."""
    from hardware.make_mat import mat

    w, h = int(MAT_MM[0] * PX_PER_MM), int(MAT_MM[1] * PX_PER_MM)
    paper = cv2.resize(mat(), (w, h), interpolation=cv2.INTER_AREA).astype(np.float32)
    return np.clip(paper[..., None] * np.array(tint, np.float32), 0, 255).astype(np.uint8)


def face_art(face: str, style: int, colouring: str, px: int, art: dict[str, np.ndarray] | None = None) -> np.ndarray:
    """One face of a die, square, ``px`` across (BGR): body colour with the pictogram in ink (``art``: the
    pictograms by face, 96x96 masks, instead of art ``style``'s)."""
    body, ink = COLOURINGS[colouring]
    top = np.zeros((px, px, 3), np.uint8)
    top[:] = body
    pictogram = art[face] if art else glyph(face, style)
    g = cv2.resize(pictogram, (int(px * 0.78), int(px * 0.78)), interpolation=cv2.INTER_AREA)
    o = (px - g.shape[0]) // 2
    alpha = (g.astype(float) / 255.0)[..., None]
    region = top[o : o + g.shape[0], o : o + g.shape[1]].astype(float)
    top[o : o + g.shape[0], o : o + g.shape[1]] = (region * (1 - alpha) + np.array(ink, float) * alpha).astype(np.uint8)
    return top


def _die_sprite(face: str, style: int, colouring: str, px: int, cocked: bool, tilt_axis: float, art=None):
    """A BGRA sprite of one die seen from above (a cocked die: squashed top, one side face)."""
    body, _ = COLOURINGS[colouring]
    pad = px
    size = px + 2 * pad
    img = np.zeros((size, size, 4), np.uint8)
    top = face_art(face, style, colouring, px, art)
    # bevel: a lighter rim, rounded corners
    rim = max(2, px // 14)
    mask = np.zeros((px, px), np.uint8)
    r = px // 6
    cv2.rectangle(mask, (r, 0), (px - r, px - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (px - 1, px - r), 255, -1)
    for cx, cy in ((r, r), (px - r - 1, r), (r, px - r - 1), (px - r - 1, px - r - 1)):
        cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    inner = cv2.erode(mask, np.ones((rim * 2 + 1, rim * 2 + 1), np.uint8))
    edge = (mask > 0) & (inner == 0)
    top[edge] = np.clip(np.array(body, float) * 1.6 + 25, 0, 255).astype(np.uint8)
    if cocked:
        # the top face leans over: squashed across the tilt axis, a darker side face shows
        squash = 0.72
        h2 = int(px * squash)
        top = cv2.resize(top, (px, h2), interpolation=cv2.INTER_AREA)
        mask = cv2.resize(mask, (px, h2), interpolation=cv2.INTER_AREA)
        side_h = int(px * 0.55)
        side = np.zeros((side_h, px, 3), np.uint8)
        side[:] = (np.array(body, float) * 0.55).astype(np.uint8)
        y0 = pad + (px - h2 - side_h) // 2
        img[y0 : y0 + h2, pad : pad + px, :3] = top
        img[y0 : y0 + h2, pad : pad + px, 3] = mask
        img[y0 + h2 : y0 + h2 + side_h, pad : pad + px, :3] = side
        img[y0 + h2 : y0 + h2 + side_h, pad : pad + px, 3] = 255
    else:
        img[pad : pad + px, pad : pad + px, :3] = top
        img[pad : pad + px, pad : pad + px, 3] = mask
    return img


def _paste(canvas: np.ndarray, sprite: np.ndarray, cx: float, cy: float, angle: float) -> None:
    window, warped = turned_onto(sprite, cx, cy, angle, canvas.shape[1], canvas.shape[0])
    a = warped[..., 3:4].astype(float) / 255.0
    box = canvas[window]
    box[:] = (box.astype(float) * (1 - a) + warped[..., :3].astype(float) * a).astype(np.uint8)


def _shadow(canvas: np.ndarray, dice: list[Die], px: int, offset: tuple[float, float], strength: float) -> None:
    h, w = canvas.shape[:2]
    shade = np.zeros((h, w), np.float32)
    for d in dice:
        rect = ((d.x + offset[0], d.y + offset[1]), (px * 1.05, px * 1.05), -d.angle)
        cv2.fillPoly(shade, [cv2.boxPoints(rect).astype(np.int32)], 1.0)
    shade = cv2.GaussianBlur(shade, (0, 0), px * 0.18)
    canvas[:] = (canvas.astype(np.float32) * (1 - strength * shade[..., None])).astype(np.uint8)


def _place(rng: random.Random, n: int, px: int, w: int, h: int, cocked_share: float) -> list[Die]:
    dice: list[Die] = []
    margin = px * 2.2
    tries = 0
    while len(dice) < n and tries < 5000:
        tries += 1
        if dice and rng.random() < 0.3:
            # touching a die already down: side by side, a little turned
            base = rng.choice(dice)
            ang = base.angle + rng.uniform(-8, 8)
            side = rng.choice([0, 90, 180, 270])
            rad = math.radians(-(base.angle + side))
            dist = px * rng.uniform(1.02, 1.12)
            x, y = base.x + dist * math.cos(rad), base.y + dist * math.sin(rad)
        else:
            x, y, ang = rng.uniform(margin, w - margin), rng.uniform(margin, h - margin), rng.uniform(0, 360)
        if not (margin <= x <= w - margin and margin <= y <= h - margin):
            continue
        box = cv2.boxPoints(((x, y), (px * 1.06, px * 1.06), -ang)).astype(np.float32)
        if any(
            cv2.intersectConvexConvex(
                box, cv2.boxPoints(((d.x, d.y), (px * 1.06, px * 1.06), -d.angle)).astype(np.float32)
            )[0]
            > 4
            for d in dice
        ):
            continue
        dice.append(Die("", x, y, ang, cocked=rng.random() < cocked_share))
    return dice


def _camera(rng: random.Random, w: int, h: int, height_cm: float | None = None) -> np.ndarray:
    """A homography from the mat canvas to the photo: height 55-75 cm (a set's rig, nudged +-1.5 cm), tilt up to 15 degrees."""
    height_cm = rng.uniform(55, 75) if height_cm is None else height_cm + rng.uniform(-1.5, 1.5)
    fov_w_mm = 2 * height_cm * 10 * math.tan(math.radians(33))
    scale = IMAGE_W / fov_w_mm / PX_PER_MM  # photo px per canvas px at the image centre
    tilt = math.radians(rng.uniform(0, 15))
    tilt_dir = rng.uniform(0, 2 * math.pi)
    k = math.tan(tilt) * 0.35 / max(w, h)
    cx, cy = w / 2 + rng.uniform(-w * 0.05, w * 0.05), h / 2 + rng.uniform(-h * 0.05, h * 0.05)
    rot = math.radians(rng.uniform(-6, 6))
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = []
    for x, y in src:
        dx, dy = x - cx, y - cy
        persp = 1 + k * (dx * math.cos(tilt_dir) + dy * math.sin(tilt_dir))
        sx, sy = dx * scale / persp, dy * scale / persp
        dst.append(
            [
                IMAGE_W / 2 + sx * math.cos(rot) - sy * math.sin(rot),
                IMAGE_H / 2 + sx * math.sin(rot) + sy * math.cos(rot),
            ]
        )
    return cv2.getPerspectiveTransform(src, np.float32(dst))


def _light(img: np.ndarray, rng: random.Random, light: str, nrng: np.random.Generator) -> np.ndarray:
    f = img.astype(np.float32)
    h, w = f.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if light == "warm room":
        f *= np.array([0.75, 0.92, 1.08], np.float32)
        f *= 0.9
    elif light == "overhead lamp":
        cx, cy = rng.uniform(0.3, 0.7) * w, rng.uniform(0.3, 0.7) * h
        d = np.sqrt((xx - cx) ** 2 + (yy - cy) ** 2) / max(w, h)
        f *= (1.25 - 0.9 * d)[..., None]
    elif light == "dim noisy":
        f *= 0.45
        f += nrng.normal(0, 7, f.shape).astype(np.float32)
    elif light == "side window":
        ramp = (xx / w) if rng.random() < 0.5 else (1 - xx / w)
        f *= (0.55 + 0.6 * ramp)[..., None]
        f *= np.array([1.06, 1.0, 0.95], np.float32)
    f += nrng.normal(0, 2.5, f.shape).astype(np.float32)
    return np.clip(f, 0, 255).astype(np.uint8)


def render_scene(
    seed: int,
    n_dice: int = 18,
    style: int = 0,
    colouring: str | None = None,
    markers: bool | None = None,
    light: str | None = None,
    cocked_share: float = 0.08,
    blur: float | None = None,
    height_cm: float | None = None,
    table: str | None = None,
):
    """One photo and its ground truth (a list of dice, one dict each); ``table``: the table round the mat, one of
    TABLES (plain when not given)."""
    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    w, h = int(MAT_MM[0] * PX_PER_MM), int(MAT_MM[1] * PX_PER_MM)
    px = int(DIE_MM * PX_PER_MM)
    markers = rng.random() < 0.6 if markers is None else markers
    canvas = mat_canvas(nrng, markers)
    dice = _place(rng, n_dice, px, w, h, cocked_share)
    kinds = [KINDS[i % 3] for i in range(len(dice))]
    for d, kind in zip(dice, kinds):
        d.face = rng.choice([f for f in FACE_IDS if FACES[f][0] == kind])
    colouring = colouring or rng.choice(list(COLOURINGS))
    light = light or rng.choice(LIGHTS)
    _shadow(canvas, dice, px, (rng.uniform(-6, 6), rng.uniform(2, 8)), 0.45 if light == "overhead lamp" else 0.3)
    for d in dice:
        _paste(canvas, _die_sprite(d.face, style, colouring, px, d.cocked, 0), d.x, d.y, d.angle)
    H = _camera(rng, w, h, height_cm)
    table_colour = tuple(int(c) for c in rng.choice([(60, 80, 110), (45, 60, 80), (90, 100, 110)]))
    photo = _on_the_table(canvas, H, table, seed, table_colour)  # (the table's own draws: the scene is the plain one's)
    photo = _light(photo, rng, light, nrng)
    blur = rng.choice([0, 0, 0, 0.6, 1.0]) if blur is None else blur
    if blur:
        photo = cv2.GaussianBlur(photo, (0, 0), blur)
    truth = _truth(dice, H, px)
    meta = {"seed": seed, "style": style, "colouring": colouring, "light": light, "markers": markers, "blur": blur}
    return photo, {"dice": truth, "scene": meta}


def _on_the_table(canvas: np.ndarray, H: np.ndarray, table: str | None, seed: int, plain) -> np.ndarray:
    """The mat ``canvas`` as the camera (``H``) sees it on a table: one of TABLES drawn from ``seed``, or ``plain``."""
    if table is None:
        return cv2.warpPerspective(canvas, H, (IMAGE_W, IMAGE_H), flags=cv2.INTER_AREA, borderValue=plain)
    photo = TABLES[table](np.random.default_rng(seed))
    cv2.warpPerspective(canvas, H, (IMAGE_W, IMAGE_H), photo, cv2.INTER_AREA, cv2.BORDER_TRANSPARENT)
    return photo


def _truth(dice: list[Die], H: np.ndarray, px: int) -> list[dict]:
    """Each die whose top face's centre the photo shows: its face, centre, corners and whether it is cocked."""
    truth = []
    for d in dice:
        corners = cv2.boxPoints(((d.x, d.y), (px, px), -d.angle)).reshape(-1, 1, 2).astype(np.float32)
        img_corners = cv2.perspectiveTransform(corners, H).reshape(-1, 2)
        centre = cv2.perspectiveTransform(np.float32([[[d.x, d.y]]]), H).reshape(2)
        if not ((0 <= centre[0] < IMAGE_W) and (0 <= centre[1] < IMAGE_H)):
            continue
        truth.append(
            {
                "face": d.face,
                "kind": FACES[d.face][0],
                "center": [round(float(centre[0]), 1), round(float(centre[1]), 1)],
                "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in img_corners],
                "cocked": d.cocked,
            }
        )
    return truth


def _gingham(rng: np.random.Generator) -> np.ndarray:
    """A checked cloth: white and one colour in bands 48 px wide, the crossings the full colour."""
    colour = np.array([(40, 40, 200), (200, 80, 30), (40, 140, 40)][int(rng.integers(3))], np.float32)
    yy, xx = np.mgrid[0:IMAGE_H, 0:IMAGE_W]
    share = (((xx // 48) % 2) + ((yy // 48) % 2)).astype(np.float32)[..., None] / 2
    return (235 * (1 - share) + colour * share).astype(np.uint8)


def _wood(rng: np.random.Generator) -> np.ndarray:
    """Wood grain: brown bands along the photo, wavering."""
    yy, xx = np.mgrid[0:IMAGE_H, 0:IMAGE_W].astype(np.float32)
    waver = cv2.resize(
        rng.random((IMAGE_H // 128 + 1, 8)).astype(np.float32), (IMAGE_W, IMAGE_H), interpolation=cv2.INTER_CUBIC
    )
    grain = 0.5 + 0.5 * np.sin(yy / 7 + 6 * waver + 0.002 * xx)
    return np.clip(np.array([40, 80, 130], np.float32) * (0.7 + 0.5 * grain[..., None]), 0, 255).astype(np.uint8)


def _contours(rng: np.random.Generator) -> np.ndarray:
    """A busy print: a light cloth covered in dark closed squiggles, many of them die-sized (a patterned
    tablecloth, terrazzo): the hardest table round a mat for a dice finder."""
    yy, xx = np.mgrid[0:IMAGE_H, 0:IMAGE_W].astype(np.float32)
    coarse, fine = ((IMAGE_H // k + 1, IMAGE_W // k + 1) for k in (64, 16))
    bumps = sum(
        weight * cv2.resize(rng.random(shape).astype(np.float32), (IMAGE_W, IMAGE_H), interpolation=cv2.INTER_CUBIC)
        for weight, shape in ((8, coarse), (2, fine))
    )
    waves = np.abs(np.sin((xx + yy) / 90 + bumps))
    grey = 200 + 45 * waves - 120 * (waves < 0.08)
    return np.clip(grey[..., None] * np.array([0.95, 0.97, 1.0], np.float32), 0, 255).astype(np.uint8)


TABLES = {"gingham": _gingham, "wood": _wood, "contours": _contours}

SCENE_QUALITY = 88  # JPEG quality of a set's photos


def set_camera_height(first_seed: int) -> float:
    """The camera's height (cm) for the set written from ``first_seed``: one rig per set, as at a real table."""
    return random.Random(first_seed).uniform(55, 75)


def write_set(
    out: Path,
    photos: int,
    first_seed: int,
    style: int,
    enroll_per_face: int = 0,
    colouring: str | None = None,
    tables: tuple[str, ...] = (),
) -> None:
    """A photo set and its enrollment photos; ``tables``: the tables round the mat, photo by photo in turn (TABLES;
    none: plain)."""
    out.mkdir(parents=True, exist_ok=True)
    height_cm = set_camera_height(first_seed)
    for i in range(photos):
        seed = first_seed + i
        table = tables[i % len(tables)] if tables else None
        photo, truth = render_scene(seed, style=style, colouring=colouring, height_cm=height_cm, table=table)
        cv2.imwrite(str(out / f"scene-{seed:05d}.jpg"), photo, [cv2.IMWRITE_JPEG_QUALITY, SCENE_QUALITY])
        (out / f"scene-{seed:05d}.json").write_text(json.dumps(truth, indent=1))
    for face in FACE_IDS if enroll_per_face else ():
        folder = out / "enroll" / face
        folder.mkdir(parents=True, exist_ok=True)
        for k in range(enroll_per_face):
            seed = first_seed * 7 + 1000 + FACE_IDS.index(face) * 50 + k
            photo, truth = render_single(seed, face, style, colouring, height_cm)
            cv2.imwrite(str(folder / f"{k:02d}.jpg"), photo, [cv2.IMWRITE_JPEG_QUALITY, 90])


def render_single(seed: int, face: str, style: int, colouring: str | None, height_cm: float | None = None):
    """An enrollment photo: one die, face up, somewhere on the mat."""
    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    w, h = int(MAT_MM[0] * PX_PER_MM), int(MAT_MM[1] * PX_PER_MM)
    px = int(DIE_MM * PX_PER_MM)
    canvas = mat_canvas(nrng, False)
    d = Die(face, rng.uniform(w * 0.3, w * 0.7), rng.uniform(h * 0.3, h * 0.7), rng.uniform(0, 360))
    colouring = colouring or "black"
    _shadow(canvas, [d], px, (rng.uniform(-6, 6), rng.uniform(2, 8)), 0.3)
    _paste(canvas, _die_sprite(face, style, colouring, px, False, 0), d.x, d.y, d.angle)
    H = _camera(rng, w, h, height_cm)
    photo = cv2.warpPerspective(canvas, H, (IMAGE_W, IMAGE_H), flags=cv2.INTER_AREA, borderValue=(60, 80, 110))
    photo = _light(photo, rng, rng.choice(LIGHTS[:2] + LIGHTS[3:]), nrng)
    # keep the repo lean: a 320x320 crop around the die, at the table camera's scale
    cx, cy = cv2.perspectiveTransform(np.float32([[[d.x, d.y]]]), H).reshape(2)
    x0 = int(np.clip(cx - 160, 0, IMAGE_W - 320))
    y0 = int(np.clip(cy - 160, 0, IMAGE_H - 320))
    return photo[y0 : y0 + 320, x0 : x0 + 320], None


def render_sheet(seed: int, style: int, colouring: str = "black", height_cm: float | None = None):
    """A teaching-sheet photo (companion/vision/teaching_sheet.py): the printed sheet on the mat, a die face up on
    each labelled place (each turned its own way, a little off centre), seen by the table camera."""
    from companion.vision.teaching_sheet import place_centres_mm, sheet_image

    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    w, h = int(MAT_MM[0] * PX_PER_MM), int(MAT_MM[1] * PX_PER_MM)
    px = int(DIE_MM * PX_PER_MM)
    canvas = mat_canvas(nrng, True)
    page = cv2.cvtColor(sheet_image(), cv2.COLOR_GRAY2BGR)
    sheet_px_per_mm = 150 / 25.4
    scale = PX_PER_MM / sheet_px_per_mm
    turn = rng.uniform(-10, 10)
    at = (w / 2 + rng.uniform(-60, 60) * PX_PER_MM, h / 2 + rng.uniform(-40, 40) * PX_PER_MM)
    to_mat = cv2.getRotationMatrix2D((page.shape[1] / 2, page.shape[0] / 2), turn, scale)
    to_mat[:, 2] += np.array(at) - np.array([page.shape[1] / 2, page.shape[0] / 2])
    paper = cv2.warpAffine(page, to_mat, (w, h), flags=cv2.INTER_AREA, borderValue=(0, 0, 0))
    on_paper = cv2.warpAffine(np.full(page.shape[:2], 255, np.uint8), to_mat, (w, h)) > 0
    canvas[on_paper] = (paper[on_paper] * rng.uniform(0.85, 1.0)).astype(np.uint8)
    dice = []
    for face, (x_mm, y_mm) in place_centres_mm().items():
        x, y = to_mat @ np.array([x_mm * sheet_px_per_mm, y_mm * sheet_px_per_mm, 1.0])
        dice.append(Die(face, x + rng.uniform(-8, 8), y + rng.uniform(-8, 8), rng.uniform(0, 360)))
    _shadow(canvas, dice, px, (rng.uniform(-6, 6), rng.uniform(2, 8)), 0.3)
    for d in dice:
        _paste(canvas, _die_sprite(d.face, style, colouring, px, False, 0), d.x, d.y, d.angle)
    H = _camera(rng, w, h, height_cm)
    photo = cv2.warpPerspective(canvas, H, (IMAGE_W, IMAGE_H), flags=cv2.INTER_AREA, borderValue=(60, 80, 110))
    return _light(photo, rng, rng.choice(LIGHTS[:2] + LIGHTS[3:]), nrng)


@dataclass(frozen=True)
class Rig:
    """One table as a table camera sees it: the camera's pose, the mat and the table round it, the lamp; the same in
    every photo taken with it (a table camera stays put), its exposure moving a little photo to photo."""

    seed: int
    style: int = 0
    colouring: str = "black"
    table: str | None = None  # one of TABLES round the mat, or a plain table
    printed: bool = False  # the mat as hardware/make_mat.py prints it (paper, markers, border line, words), not felt
    family: int | None = None  # the dice's art: a procedural family (bench/learn/art.py; 10**6 up never trained on)
    markers: bool = True  # a felt mat's four corner markers (False: a user's own mat; the printed mat always has them)

    def canvas(self) -> np.ndarray:
        """The bare mat, seen square-on at PX_PER_MM (a copy to draw on)."""
        return self._bare_mat.copy()

    @cached_property
    def _bare_mat(self) -> np.ndarray:
        if not self.printed:
            return mat_canvas(np.random.default_rng(self.seed), self.markers)
        return paper_mat((0.93, 0.96, 0.98))  # paper is seldom white

    @cached_property
    def _art(self) -> dict[str, np.ndarray] | None:
        """The dice's pictograms by face, if a procedural family (else art ``style``'s)."""
        if self.family is None:
            return None
        from bench.learn.art import family

        return family(self.family)

    def photo(self, dice: list[Die], seed: int) -> tuple[np.ndarray, np.ndarray]:
        """The dice on this table's mat, photographed: the photo, and the mat-to-photo homography."""
        rng = random.Random(seed)
        nrng = np.random.default_rng(seed)
        canvas = self.canvas()
        px = int(DIE_MM * PX_PER_MM)
        _shadow(canvas, dice, px, (rng.uniform(-6, 6), rng.uniform(2, 8)), 0.3)
        for d in dice:
            sprite = _die_sprite(d.face, self.style, self.colouring, px, d.cocked, 0, self._art)
            _paste(canvas, sprite, d.x, d.y, d.angle)
        H = _camera(random.Random(self.seed), canvas.shape[1], canvas.shape[0], set_camera_height(self.seed))
        photo = _on_the_table(canvas, H, self.table, self.seed, (60, 80, 110))
        lamp = random.Random(self.seed)
        photo = _light(photo, lamp, lamp.choice(LIGHTS), nrng)
        exposure = rng.uniform(0.94, 1.06)
        return np.clip(photo.astype(np.float32) * exposure, 0, 255).astype(np.uint8), H

    def frame(self, seed: int, face: str) -> tuple[np.ndarray, dict]:
        """An enrollment photo as the table camera takes it: one die, face up, anywhere on the mat, the whole frame;
        and its truth (face, kind, centre, corners, as the Blender renderer's enrollment photos')."""
        rng = random.Random(seed)
        w, h = MAT_MM[0] * PX_PER_MM, MAT_MM[1] * PX_PER_MM
        die = Die(face, rng.uniform(w * 0.15, w * 0.85), rng.uniform(h * 0.2, h * 0.8), rng.uniform(0, 360))
        photo, H = self.photo([die], seed)
        return photo, _truth([die], H, int(DIE_MM * PX_PER_MM))[0]

    def scene(self, seed: int, n_dice: int = 18, cocked_share: float = 0.08) -> tuple[np.ndarray, dict]:
        """A throw on this table: ``n_dice`` dice, touching in places, some cocked."""
        rng = random.Random(seed)
        px = int(DIE_MM * PX_PER_MM)
        dice = _place(rng, n_dice, px, int(MAT_MM[0] * PX_PER_MM), int(MAT_MM[1] * PX_PER_MM), cocked_share)
        for i, d in enumerate(dice):
            d.face = rng.choice([f for f in FACE_IDS if FACES[f][0] == KINDS[i % 3]])
        photo, H = self.photo(dice, seed)
        return photo, {"dice": _truth(dice, H, px), "scene": {"seed": seed, "rig": self.seed}}


def write_rig_set(out: Path, rig: Rig, photos: int, enroll_per_face: int) -> None:
    """A photo set from one table camera: scene-*.jpg throws, and enroll/<face>/*.jpg its whole frames of one die."""
    out.mkdir(parents=True, exist_ok=True)
    for i in range(photos):
        photo, truth = rig.scene(rig.seed + i)
        cv2.imwrite(str(out / f"scene-{rig.seed + i:05d}.jpg"), photo, [cv2.IMWRITE_JPEG_QUALITY, SCENE_QUALITY])
        (out / f"scene-{rig.seed + i:05d}.json").write_text(json.dumps(truth, indent=1))
    for face in FACE_IDS:
        folder = out / "enroll" / face
        folder.mkdir(parents=True, exist_ok=True)
        for k in range(enroll_per_face):
            photo, truth = rig.frame(rig.seed * 7 + 1000 + FACE_IDS.index(face) * 50 + k, face)
            cv2.imwrite(str(folder / f"{k:02d}.jpg"), photo, [cv2.IMWRITE_JPEG_QUALITY, 90])
            (folder / f"{k:02d}.json").write_text(json.dumps(truth))
