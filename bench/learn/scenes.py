"""Procedural table photos for the dice finder: dice of procedural art on mats and tables, with the truth.

A scene is drawn at the finder's working scale (a die's top face ``FINDER_SIDE`` px across, give or
take the enrollment's error) via a canvas RENDER times bigger, then shrunk, as a camera's sensor would:

- the mat: any grey, a soft texture, sometimes a printed border line, a corner marker, printed
  blots; beyond its edge a table (plain, wood grain, gingham, marble);
- dice of one colour (dark or light), each a cube seen from above a little off the camera's axis:
  its top face (the family's pictogram) and one or two sides, a shadow; some in heaps, touching;
  some cocked (leaning on another: the top squashed, a big side showing);
- light falling off across the photo, blur, noise, JPEG.

``scene`` returns the grey photo and, per die, its top face's centre (px), turn (degrees) and
whether it is level. Nothing here draws the repo's own dice art or copies a rendered photo.
"""

from __future__ import annotations

import cv2
import numpy as np

from bench.learn.art import FACE_IDS, family

RENDER = 3  # drawn at this many times the working scale, then shrunk (anti-aliased edges, real blur)
FINDER_SIDE = 16.0  # px: a die's top face at the finder's working scale


def _texture(shape: tuple[int, int], rng: np.random.Generator, strength: float, grain: float) -> np.ndarray:
    noise = rng.normal(0, 1, (shape[0] // 4 + 2, shape[1] // 4 + 2)).astype(np.float32)
    noise = cv2.GaussianBlur(noise, (0, 0), grain)
    noise = cv2.resize(noise, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC)
    return strength * noise / (noise.std() + 1e-6)


def _table(shape: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    h, w = shape
    base = rng.uniform(40, 220)
    kind = rng.integers(4)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == 0:  # plain
        return base + _texture(shape, rng, rng.uniform(0, 12), 4)
    if kind == 1:  # wood grain: stripes wandering along one direction
        a = rng.uniform(0, np.pi)
        u = xx * np.cos(a) + yy * np.sin(a) + _texture(shape, rng, 20, 6)
        return base + rng.uniform(10, 40) * np.sin(u / rng.uniform(3, 12))
    if kind == 2:  # gingham: two crossed sets of bands
        period = rng.uniform(20, 80)
        a = ((xx // period) % 2) + ((yy // period) % 2)
        return base * (1 - 0.25 * a) + _texture(shape, rng, 4, 2)
    marble = _texture(shape, rng, 1, 3)  # marble: thin veins where a smooth field crosses zero
    return base + rng.uniform(30, 80) * np.exp(-(marble**2) / 0.02) * rng.choice([-1, 1])


def _marker(rng: np.random.Generator, cells: int) -> np.ndarray:
    """An ArUco-like square: a black 4x4 code in a black frame, in a white border (as the mat's corners have)."""
    code = rng.integers(0, 2, (4, 4)) * 255
    inner = np.zeros((6, 6), np.uint8)
    inner[1:5, 1:5] = code
    outer = np.full((8, 8), 255, np.uint8)
    outer[1:7, 1:7] = inner
    return cv2.resize(outer, (cells, cells), interpolation=cv2.INTER_NEAREST).astype(np.float32)


def _quad(centre: np.ndarray, side: float, turn: float, squash: float = 1.0, lean: float = 0.0) -> np.ndarray:
    """A square's corners (clockwise from its top left), squashed along the direction ``lean`` (degrees)."""
    half = side / 2
    square = np.float32([[-half, -half], [half, -half], [half, half], [-half, half]])
    t = np.radians(turn)
    square = square @ np.float32([[np.cos(t), np.sin(t)], [-np.sin(t), np.cos(t)]])
    if squash != 1.0:
        a = np.radians(lean)
        d = np.float32([np.cos(a), np.sin(a)])
        square = square - np.outer(square @ d, d) * (1 - squash)
    return (square + centre).astype(np.float32)


def scene(seed: int, size: int = 96, die: float = FINDER_SIDE) -> tuple[np.ndarray, list[dict]]:
    """A ``size`` x ``size`` grey photo with dice's top faces about ``die`` px across (the finder's working scale
    unless told), and its dice: centre, turn, level, side."""
    rng = np.random.default_rng(seed)
    big = size * RENDER
    side = die * RENDER * rng.uniform(0.85, 1.15)
    photo = _table((big, big), rng)
    # the mat: most of the photo, sometimes its edge crossing it
    mat = rng.uniform(30, 220) + _texture((big, big), rng, rng.uniform(0, 15), rng.uniform(2, 10))
    on_mat = np.ones((big, big), np.float32)
    if rng.random() < 0.4:
        a, off = rng.uniform(0, 2 * np.pi), rng.uniform(-0.4, 0.4) * big
        yy, xx = np.mgrid[0:big, 0:big].astype(np.float32) - big / 2
        on_mat = ((xx * np.cos(a) + yy * np.sin(a)) < off).astype(np.float32)
    photo = photo * (1 - on_mat) + mat * on_mat
    ink = 255.0 - rng.uniform(0, 60) if float(np.mean(mat)) < 120 else rng.uniform(0, 70)
    printed = np.zeros((big, big), np.uint8)  # what is printed on the mat, in one ink
    if rng.random() < 0.35:  # a border line
        p = rng.uniform(0, big, 2)
        a = rng.uniform(0, np.pi)
        d = np.array([np.cos(a), np.sin(a)]) * big * 2
        cv2.line(
            printed, tuple((p - d).astype(int)), tuple((p + d).astype(int)), 255, int(rng.uniform(2, 9)), cv2.LINE_AA
        )
    for _ in range(int(rng.integers(0, 3))):  # blots, letters, boxes (a teaching sheet's places)
        p = tuple(rng.integers(0, big, 2).tolist())
        if rng.random() < 0.3:
            half = side * rng.uniform(0.6, 1.5)
            box = _quad(np.float32(p), 2 * half, rng.uniform(0, 90))
            cv2.polylines(printed, [box.astype(np.int32)], True, 255, int(rng.uniform(2, 6)), cv2.LINE_AA)
        elif rng.random() < 0.5:
            cv2.putText(printed, "RIP"[: rng.integers(1, 4)], p, cv2.FONT_HERSHEY_SIMPLEX, side / 30, 255, 3)
        else:
            cv2.circle(printed, p, int(rng.uniform(3, side)), 255, int(rng.choice([-1, 3])), cv2.LINE_AA)
    share = printed.astype(np.float32) / 255 * on_mat
    photo = photo * (1 - share) + ink * share
    if rng.random() < 0.25:  # a corner marker
        cells = int(side * rng.uniform(1.5, 3))
        x, y = rng.integers(0, big - cells, 2)
        photo[y : y + cells, x : x + cells] = _marker(rng, cells)
    art = family(int(rng.integers(10**6)))
    dark = rng.random() < 0.6
    body = rng.uniform(15, 70) if dark else rng.uniform(170, 235)
    print_ = rng.uniform(170, 245) if dark else rng.uniform(20, 100)
    lean = rng.uniform(0, 360)  # where the camera's axis is: dice show the sides facing it
    parallax = rng.uniform(0, 0.35) * side
    shadow = np.array([np.cos(np.radians(rng.uniform(0, 360))), np.sin(np.radians(rng.uniform(0, 360)))])
    shadow *= rng.uniform(0, 0.4) * side
    rim = rng.choice([0.0, rng.uniform(0.6, 0.85), rng.uniform(1.2, 1.8)])  # the set's bevel: none, darker, lighter
    rim_width = rng.uniform(0.03, 0.08)
    dice: list[dict] = []
    hulls: list[np.ndarray] = []
    for _ in range(int(rng.integers(0, 22))):
        if hulls and rng.random() < 0.7:  # against another die: a heap
            other = dice[int(rng.integers(len(dice)))]
            a = np.radians(other["turn"] + 90 * rng.integers(4) + rng.normal(0, 12))
            centre = np.array(other["centre"]) * RENDER + side * rng.uniform(1.02, 1.3) * np.array(
                [np.cos(a), np.sin(a)]
            )
        else:
            centre = rng.uniform(-0.1, 1.1, 2) * big
        turn = rng.uniform(0, 90)
        cocked = rng.random() < 0.15
        # a cocked die leans 12-60 degrees (on another die, a wall): its top foreshortened by the lean's cosine,
        # the side below it showing by its sine
        lean_deg = rng.uniform(12, 60) if cocked else 0.0
        tilt = rng.uniform(0, 360)
        squash = float(np.cos(np.radians(lean_deg)))
        top = _quad(centre, side, turn, squash, tilt)
        off = parallax * np.array([np.cos(np.radians(lean)), np.sin(np.radians(lean))]) * rng.uniform(0.8, 1.2)
        if cocked:
            off = off + side * np.sin(np.radians(lean_deg)) * np.array(
                [np.cos(np.radians(tilt)), np.sin(np.radians(tilt))]
            )
        base = top - off.astype(np.float32)
        hull = cv2.convexHull(np.concatenate([top, base]).astype(np.float32)).reshape(-1, 2)
        if any(cv2.intersectConvexConvex(hull, h)[0] > 0.02 * side * side for h in hulls):
            continue
        hulls.append(hull)
        shade = np.zeros((big, big), np.float32)  # its shadow on the mat
        cv2.fillConvexPoly(shade, (hull + shadow).astype(np.int32), 1.0, cv2.LINE_AA)
        photo *= 1 - rng.uniform(0.15, 0.45) * cv2.GaussianBlur(shade, (0, 0), side / 8)
        cv2.fillConvexPoly(photo, hull.astype(np.int32), float(body * rng.uniform(0.45, 0.95)), cv2.LINE_AA)
        face = art[FACE_IDS[int(rng.integers(18))]].astype(np.float32) / 255.0
        painted = body + (print_ - body) * face
        gx, gy = rng.uniform(-1, 1, 2)
        yy, xx = np.mgrid[0:96, 0:96].astype(np.float32) / 96 - 0.5
        painted *= 1 + rng.uniform(0, 0.3) * (gx * xx + gy * yy)
        if cocked:  # a leaning top catches the light another way
            painted *= rng.uniform(0.7, 1.3)
        if rim:  # a bevelled edge round the top, lighter or darker than the body
            edge = int(96 * rim_width)
            ring = np.zeros((96, 96), bool)
            ring[:edge], ring[-edge:], ring[:, :edge], ring[:, -edge:] = True, True, True, True
            painted[ring] = body * rim
        square = np.float32([[0, 0], [96, 0], [96, 96], [0, 96]])
        warp = cv2.getPerspectiveTransform(square, top)
        layer = cv2.warpPerspective(painted, warp, (big, big), flags=cv2.INTER_AREA)
        inside = cv2.warpPerspective(np.ones((96, 96), np.float32), warp, (big, big))
        photo = photo * (1 - inside) + layer * inside
        dice.append(
            {"centre": (centre / RENDER).tolist(), "turn": float(turn), "level": not cocked, "side": side / RENDER}
        )
    yy, xx = np.mgrid[0:big, 0:big].astype(np.float32) / big - 0.5
    gx, gy = rng.uniform(-1, 1, 2)
    photo *= 1 + rng.uniform(0, 0.6) * (gx * xx + gy * yy)
    photo = cv2.GaussianBlur(photo, (0, 0), rng.uniform(0.3, 1.0) * RENDER)
    small = cv2.resize(photo, (size, size), interpolation=cv2.INTER_AREA)
    small += rng.normal(0, rng.uniform(1, 8), small.shape)
    small = np.clip(small, 0, 255).astype(np.uint8)
    if rng.random() < 0.6:
        small = cv2.imdecode(cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 95))])[1], 0)
    inside = [d for d in dice if -4 <= d["centre"][0] < size + 4 and -4 <= d["centre"][1] < size + 4]
    return small, inside
