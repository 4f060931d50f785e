"""Procedural table photos for the dice finder: dice of procedural art on mats and tables, with the truth.

A scene is drawn at the finder's working scale (a die's top face ``FINDER_SIDE`` px across, give or
take the enrollment's error) via a canvas RENDER times bigger, then shrunk, as a camera's sensor would:

- the mat: any grey (black dice on a black mat too), a soft texture, sometimes a printed border
  line, a corner marker, printed blots; beyond its edge a table (plain, wood grain, gingham, marble);
- dice of one colour (dark or light), each a cube seen from above off the camera's axis (up to half
  a side of its sides showing, as a tilted table camera shows them):
  every face the camera sees printed with one of the family's pictograms, foreshortened and lit by
  its tilt, a shadow; some in heaps, touching; some cocked (leaning 12-60 degrees, most on a
  neighbour, over its edge: the top foreshortened, a big side showing); a die whose top's centre
  a leaning die covers is no level die either;
- light falling off across the photo, a dim room now and then (the picture sunk into the camera's
  noise), blur, noise, JPEG.

``scene`` returns the grey photo and, per die, its top face's centre (px), turn (degrees), whether
it is level, and where its body's centre shows from its top face's (in sides). Nothing here draws the repo's own dice art or copies a rendered photo.
"""

from __future__ import annotations

import cv2
import numpy as np

from bench.learn.art import FACE_IDS, family

RENDER = 3  # drawn at this many times the working scale, then shrunk (anti-aliased edges, real blur)
FINDER_SIDE = 16.0  # px: a die's top face at the finder's working scale
PARALLAX = 0.5  # sides: the most a level die's top shows off its base (a table camera tilted to one side)
DIM_SHARE = 0.2  # photos taken in a dim room ...
DIM_LIGHT = (0.12, 0.4)  # ... at this share of the light


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


def _quad(centre: np.ndarray, side: float, turn: float) -> np.ndarray:
    """A square's corners (clockwise from its top left), turned ``turn`` degrees."""
    half = side / 2
    square = np.float32([[-half, -half], [half, -half], [half, half], [-half, half]])
    t = np.radians(turn)
    square = square @ np.float32([[np.cos(t), np.sin(t)], [-np.sin(t), np.cos(t)]])
    return (square + centre).astype(np.float32)


# a cube's six faces as turns of its top face (so none is drawn mirrored); the top first
_FACE_TURNS = (
    np.eye(3),
    np.array([[1, 0, 0], [0, 0, -1], [0, 1, 0]]),  # a quarter turn about x, each way
    np.array([[1, 0, 0], [0, 0, 1], [0, -1, 0]]),
    np.array([[0, 0, 1], [0, 1, 0], [-1, 0, 0]]),  # about y
    np.array([[0, 0, -1], [0, 1, 0], [1, 0, 0]]),
    np.array([[1, 0, 0], [0, -1, 0], [0, 0, -1]]),  # the bottom
)


def _cube(
    centre: np.ndarray, side: float, turn: float, lean_deg: float, tilt: float, parallax: np.ndarray
) -> tuple[list[tuple[np.ndarray, np.ndarray]], np.ndarray]:
    """The faces of a die seen from above, the top first: each its four corners in the photo (clockwise from its
    top left, as ``_quad``'s) and its outward normal, for the faces the camera sees; and where the die's body
    (its centre) shows, from its top face's centre (px). The die is turned ``turn``,
    then leans ``lean_deg`` towards ``tilt`` (degrees); a point's image moves by ``parallax`` per unit of height
    (a camera a little off the die's axis); the top face's centre is at ``centre``."""
    h = side / 2
    t, a, b = np.radians(turn), np.radians(tilt), np.radians(lean_deg)
    spin = np.array([[np.cos(t), -np.sin(t), 0], [np.sin(t), np.cos(t), 0], [0, 0, 1]])
    axis = np.array([-np.sin(a), np.cos(a), 0.0])  # leaning about this tips the top towards ``tilt``
    cross = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    tip = np.eye(3) + np.sin(b) * cross + (1 - np.cos(b)) * cross @ cross
    pose = tip @ spin
    top = np.array([[-h, -h, h], [h, -h, h], [h, h, h], [-h, h, h]])
    sight = np.array([-parallax[0], -parallax[1], 1.0])  # towards the camera
    lift = pose @ np.array([0, 0, h])
    faces = []
    for k, turn_face in enumerate(_FACE_TURNS):
        normal = pose @ turn_face @ np.array([0, 0, 1.0])
        if k and normal @ sight <= 0.02:
            continue
        corners = (pose @ turn_face @ top.T).T - lift
        faces.append((centre + corners[:, :2] + np.outer(corners[:, 2], parallax), normal))
    return faces, -(lift[:2] + lift[2] * parallax)


def _painted(
    face: np.ndarray, body: float, ink: float, lit: float, rim: float, rim_width: float, rng: np.random.Generator
) -> np.ndarray:
    """A die's face (a 96 px pictogram) in the die's colours, lit ``lit`` times a level top's light with a little
    gradient across it, and a bevelled edge round it (``rim`` times the body's grey; none if 0)."""
    painted = body + (ink - body) * face.astype(np.float32) / 255.0
    painted *= lit
    gx, gy = rng.uniform(-1, 1, 2)
    yy, xx = np.mgrid[0:96, 0:96].astype(np.float32) / 96 - 0.5
    painted *= 1 + rng.uniform(0, 0.3) * (gx * xx + gy * yy)
    if rim:
        edge = int(96 * rim_width)
        ring = np.zeros((96, 96), bool)
        ring[:edge], ring[-edge:], ring[:, :edge], ring[:, -edge:] = True, True, True, True
        painted[ring] = body * rim
    return painted


def _laid(photo: np.ndarray, painted: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """``photo`` with the square ``painted`` warped onto the four corners ``quad``."""
    square = np.float32([[0, 0], [96, 0], [96, 96], [0, 96]])
    warp = cv2.getPerspectiveTransform(square, quad.astype(np.float32))
    layer = cv2.warpPerspective(painted, warp, photo.shape[::-1], flags=cv2.INTER_AREA)
    inside = cv2.warpPerspective(np.ones((96, 96), np.float32), warp, photo.shape[::-1])
    return photo * (1 - inside) + layer * inside


def scene(seed: int, size: int = 96, die: float = FINDER_SIDE) -> tuple[np.ndarray, list[dict]]:
    """A ``size`` x ``size`` grey photo with dice's top faces about ``die`` px across (the finder's working scale
    unless told), and its dice: centre, turn, level, side, body."""
    rng = np.random.default_rng(seed)
    big = size * RENDER
    side = die * RENDER * rng.uniform(0.85, 1.15)
    photo = _table((big, big), rng)
    # the mat: most of the photo, sometimes its edge crossing it
    mat = rng.uniform(10, 220) + _texture((big, big), rng, rng.uniform(0, 15), rng.uniform(2, 10))
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
    parallax = rng.uniform(0, PARALLAX) * side
    shadow = np.array([np.cos(np.radians(rng.uniform(0, 360))), np.sin(np.radians(rng.uniform(0, 360)))])
    shadow *= rng.uniform(0, 0.4) * side
    rim = rng.choice([0.0, rng.uniform(0.6, 0.85), rng.uniform(1.2, 1.8)])  # the set's bevel: none, darker, lighter
    rim_width = rng.uniform(0.03, 0.08)
    dice: list[dict] = []
    hulls: list[np.ndarray] = []
    light = np.array([*rng.uniform(-0.6, 0.6, 2), 1.0])  # the lamp's direction; the faces' light by their tilt
    light /= np.linalg.norm(light)
    ambient = rng.uniform(0.3, 0.7)
    for _ in range(int(rng.integers(0, 22))):
        cocked = rng.random() < 0.15
        # a cocked die leans 12-60 degrees, most often on a neighbour: its top tips away from it, over its edge
        lean_deg = rng.uniform(12, 60) if cocked else 0.0
        tilt = rng.uniform(0, 360)
        leaning_on = None
        if hulls and rng.random() < 0.7:  # against another die: a heap
            leaning_on = int(rng.integers(len(dice)))
            other = dice[leaning_on]
            a = np.radians(other["turn"] + 90 * rng.integers(4) + rng.normal(0, 12))
            gap = rng.uniform(0.85, 1.15) if cocked else rng.uniform(1.02, 1.3)
            centre = np.array(other["centre"]) * RENDER + side * gap * np.array([np.cos(a), np.sin(a)])
            if cocked:
                tilt = np.degrees(a) + rng.normal(0, 25)
        else:
            centre = rng.uniform(-0.1, 1.1, 2) * big
        turn = rng.uniform(0, 90)
        off = parallax * np.array([np.cos(np.radians(lean)), np.sin(np.radians(lean))]) * rng.uniform(0.8, 1.2)
        faces, shows = _cube(centre, side, turn, lean_deg, tilt, off / side)
        hull = cv2.convexHull(np.concatenate([q for q, _ in faces]).astype(np.float32)).reshape(-1, 2)
        crowded = [k for k, h in enumerate(hulls) if cv2.intersectConvexConvex(hull, h)[0] > 0.02 * side * side]
        if crowded and not (cocked and crowded == [leaning_on]):
            continue
        hulls.append(hull)
        shade = np.zeros((big, big), np.float32)  # its shadow on the mat
        cv2.fillConvexPoly(shade, (hull + shadow).astype(np.int32), 1.0, cv2.LINE_AA)
        photo *= 1 - rng.uniform(0.15, 0.45) * cv2.GaussianBlur(shade, (0, 0), side / 8)
        # the hull in a darker body shade first: between the faces it is the dice's rounded edges
        cv2.fillConvexPoly(photo, hull.astype(np.int32), float(body * rng.uniform(0.45, 0.95)), cv2.LINE_AA)
        level_light = ambient + (1 - ambient) * light[2]
        top_face = art[FACE_IDS[int(rng.integers(18))]]
        for k, (quad, normal) in enumerate(faces):
            face = top_face if k == 0 else np.rot90(art[FACE_IDS[int(rng.integers(18))]], int(rng.integers(4)))
            lit = (ambient + (1 - ambient) * max(0.0, float(normal @ light))) / level_light
            painted = _painted(face, body, print_, lit, rim, rim_width, rng)
            if k:  # a side's print stops short of the rounded edges the hull shows
                quad = quad.mean(axis=0) + (quad - quad.mean(axis=0)) * 0.94
            photo = _laid(photo, painted, quad)
        for k, earlier in enumerate(dice):  # a die whose top's centre this one covers is no level die to read
            if cv2.pointPolygonTest(hull, tuple(float(v) * RENDER for v in earlier["centre"]), False) >= 0:
                dice[k] = {**earlier, "level": False}
        dice.append(
            {
                "centre": (centre / RENDER).tolist(),
                "turn": float(turn),
                "level": not cocked,
                "side": side / RENDER,
                "body": (shows / side).tolist(),
            }
        )
    yy, xx = np.mgrid[0:big, 0:big].astype(np.float32) / big - 0.5
    gx, gy = rng.uniform(-1, 1, 2)
    photo *= 1 + rng.uniform(0, 0.6) * (gx * xx + gy * yy)
    photo = cv2.GaussianBlur(photo, (0, 0), rng.uniform(0.3, 1.0) * RENDER)
    small = cv2.resize(photo, (size, size), interpolation=cv2.INTER_AREA)
    if rng.random() < DIM_SHARE:  # a dim room: the camera's noise stays what it is, the picture sinks into it
        small *= rng.uniform(*DIM_LIGHT)
    small += rng.normal(0, rng.uniform(1, 8), small.shape)
    small = np.clip(small, 0, 255).astype(np.uint8)
    if rng.random() < 0.6:
        small = cv2.imdecode(cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 95))])[1], 0)
    inside = [d for d in dice if -4 <= d["centre"][0] < size + 4 and -4 <= d["centre"][1] < size + 4]
    return small, inside
