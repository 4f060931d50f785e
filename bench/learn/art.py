"""Procedural dice art: families of 18 pictograms, and the die faces a camera sees of them.

A family is one set of dice: each face id gets a pictogram made of a few random strokes
(bones, rings, blobs, bars, arcs), every right face the mirror image of its left face, and
what a family's faces share drawn on all of them (a ring or a frame, the printed number in
one corner, one stroke width, filled or outlined). No family draws a bone, a skull or a hat
as the repo's renderers do: the embedding must learn to tell pictograms apart, not to
know ours, so our art (bench/render/glyphs.py) can be held out whole.

``view`` turns a pictogram into a grey face patch as the reader would cut it: dark or light
dice, ink of some contrast, shading across the face, a highlight or a sheen up to white, blur,
noise, JPEG, and the cut a little off (turn, size, shift), upright to within a few degrees.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.games.rolling_bones.dice import FACE_IDS, FACES
from companion.vision.embedding import normalise

SIZE = 96  # pictograms are drawn on a 96x96 canvas
PATCH = 32  # the face patch the embedding sees (px)
LEFT_FACES = [f for f in FACE_IDS if FACES[f][0] == "left"]
CENTRE_FACES = [f for f in FACE_IDS if FACES[f][0] == "center"]


def _stroke(img: np.ndarray, rng: np.random.Generator, t: int, filled: bool) -> None:
    kind = rng.integers(6)
    p = rng.uniform(18, 78, size=2).astype(int)
    q = rng.uniform(18, 78, size=2).astype(int)
    if kind == 0:  # a bone: a bar with a knob at each end, one end larger
        cv2.line(img, tuple(p), tuple(q), 255, t, cv2.LINE_AA)
        cv2.circle(img, tuple(p), int(t * rng.uniform(0.9, 1.6)), 255, -1, cv2.LINE_AA)
        cv2.circle(img, tuple(q), int(t * rng.uniform(0.6, 1.1)), 255, -1, cv2.LINE_AA)
    elif kind == 1:  # a ring or a disc
        cv2.circle(img, tuple(p), int(rng.uniform(6, 20)), 255, -1 if filled else t, cv2.LINE_AA)
    elif kind == 2:  # an ellipse at a slant
        axes = (int(rng.uniform(8, 24)), int(rng.uniform(4, 12)))
        cv2.ellipse(img, tuple(p), axes, float(rng.uniform(0, 180)), 0, 360, 255, -1 if filled else t, cv2.LINE_AA)
    elif kind == 3:  # a bar
        cv2.line(img, tuple(p), tuple(q), 255, t, cv2.LINE_AA)
    elif kind == 4:  # an arc
        axes = (int(rng.uniform(10, 26)), int(rng.uniform(10, 26)))
        start = float(rng.uniform(0, 360))
        cv2.ellipse(img, tuple(p), axes, 0, start, start + rng.uniform(90, 250), 255, t, cv2.LINE_AA)
    else:  # a polygon
        pts = (p + rng.uniform(-16, 16, size=(int(rng.integers(3, 6)), 2))).astype(np.int32)
        if filled:
            cv2.fillPoly(img, [pts], 255, cv2.LINE_AA)
        else:
            cv2.polylines(img, [pts], True, 255, t, cv2.LINE_AA)


def family(seed: int) -> dict[str, np.ndarray]:
    """The 18 pictograms (96x96 uint8 masks, 255 = ink) of one random art family."""
    rng = np.random.default_rng(seed)
    t = int(rng.integers(2, 9))
    filled = bool(rng.random() < 0.5)
    ring = rng.random() < 0.25
    frame = not ring and rng.random() < 0.2
    number_at = rng.integers(5)  # 0-3 a corner, 4 none
    font = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_PLAIN, cv2.FONT_HERSHEY_TRIPLEX)[
        rng.integers(4)
    ]
    scale = rng.uniform(0.55, 1.0) if (ring or frame or number_at < 4) else rng.uniform(0.75, 1.0)
    turn = float(rng.choice([0, 0, 0, 45, rng.uniform(-30, 30)]))
    mirror_number = bool(rng.random() < 0.5)
    out: dict[str, np.ndarray] = {}
    for face in LEFT_FACES + CENTRE_FACES:
        img = np.zeros((SIZE, SIZE), np.uint8)
        for _ in range(int(rng.integers(2, 5))):
            _stroke(img, rng, t, filled)
        warp = cv2.getRotationMatrix2D((SIZE / 2, SIZE / 2), turn, scale)
        img = cv2.warpAffine(img, warp, (SIZE, SIZE), flags=cv2.INTER_LINEAR)
        out[face] = img
    for face in LEFT_FACES:
        out[face.replace("left-", "right-")] = out[face][:, ::-1].copy()
    for face, img in out.items():
        if ring:
            cv2.circle(img, (SIZE // 2, SIZE // 2), 44, 255, max(2, t // 2), cv2.LINE_AA)
        if frame:
            cv2.rectangle(img, (5, 5), (SIZE - 6, SIZE - 6), 255, max(2, t // 2), cv2.LINE_AA)
        if number_at < 4:
            x, y = [(6, 28), (66, 28), (66, 90), (6, 90)][number_at]
            mirrored = FACES[face][0] == "right" and mirror_number
            number = np.zeros_like(img)
            cv2.putText(number, str(FACES[face][1]), (x, y), font, 0.9, 255, 2, cv2.LINE_AA)
            img |= number[:, ::-1] if mirrored else number
    return out


def view(
    mask: np.ndarray, rng: np.random.Generator, size: int = PATCH, dark_die: bool | None = None, shaken: float = 0.0
) -> np.ndarray:
    """A face patch of ``mask`` as a camera and the reader's cut would give it (float32, zero mean, unit spread).
    ``dark_die``: light print on a dark die, or dark on light (None: either); one set of dice is one or the other.

    The die lies on a mat, a side or two of it showing (off the camera's axis), maybe a neighbour touching it;
    the cut is the top face's square with each corner a little off (a finder's error, the camera's perspective)."""
    if dark_die is None:
        dark_die = bool(rng.random() < 0.6)
    body, ink = (
        (rng.uniform(10, 70), rng.uniform(150, 245)) if dark_die else (rng.uniform(170, 240), rng.uniform(20, 110))
    )
    face = body + (ink - body) * (mask.astype(np.float32) / 255.0)
    yy, xx = np.mgrid[0:SIZE, 0:SIZE].astype(np.float32) / SIZE
    gx, gy = rng.uniform(-1, 1, size=2)
    face *= 1 + rng.uniform(0, 0.5) * (gx * (xx - 0.5) + gy * (yy - 0.5))  # light falling off across the face
    if rng.random() < 0.4:  # a highlight on a glossy top
        c = rng.uniform(0.2, 0.8, size=2)
        face += rng.uniform(20, 90) * np.exp(-((xx - c[0]) ** 2 + (yy - c[1]) ** 2) / rng.uniform(0.005, 0.05))
    if rng.random() < 0.35:  # a lamp's sheen over part of a glossy top, print and body alike, up to white
        angle = rng.uniform(0, 2 * np.pi)
        along = np.cos(angle) * (xx - 0.5) + np.sin(angle) * (yy - 0.5)
        edge, soft = rng.uniform(-0.4, 0.4), rng.uniform(0.05, 0.4)
        face += rng.uniform(40, 220) / (1 + np.exp(-(along - edge) / soft))
    face = np.minimum(face, 255)  # the camera saturates
    scene = _surroundings(face, body, rng)
    # the cut: the top face's corners, each a little off, turned a little, squared up to SIZE
    c0 = CONTEXT
    corners = np.float32([[c0, c0], [c0 + SIZE, c0], [c0 + SIZE, c0 + SIZE], [c0, c0 + SIZE]])
    centre = corners.mean(0)
    zoom, turn = rng.uniform(0.85, 1.15), np.radians(rng.normal(0, 5))
    spin = np.float32([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    corners = centre + zoom * (corners - centre) @ spin.T
    corners += rng.normal(0, 3.5, size=2) + rng.normal(0, 2.5, size=(4, 2))  # shifted, and each corner its own way
    square = np.float32([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]])
    face = cv2.warpPerspective(scene, cv2.getPerspectiveTransform(corners.astype(np.float32), square), (SIZE, SIZE))
    if shaken and rng.random() < shaken:  # this share of views taken by a camera that moved while the shutter was open
        face = cv2.filter2D(face, -1, line_kernel(rng.uniform(*SHAKE) * SIZE, rng.uniform(0, 180)))
    sigma = rng.uniform(0.3, 2.2)
    face = cv2.GaussianBlur(face, (0, 0), sigma)
    small = cv2.resize(face, (size, size), interpolation=cv2.INTER_AREA)
    small += rng.normal(0, rng.uniform(1, 10), size=small.shape)
    small = np.clip(small, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        ok, buf = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 95))])
        small = cv2.imdecode(buf, cv2.IMREAD_GRAYSCALE)
    return normalise(small)


SHAKE = (0.03, 0.2)  # a shaken camera's smear, as a share of the die's side (the camera effects' 3-7 px: 0.06-0.15)


def line_kernel(length: float, degrees: float) -> np.ndarray:
    """A blur along a line ``length`` px long at ``degrees``: what a camera moving while the shutter is open does."""
    size = int(np.ceil(length)) | 1
    kernel = np.zeros((size, size), np.float32)
    half = (length - 1) / 2
    dx, dy = half * np.cos(np.radians(degrees)), half * np.sin(np.radians(degrees))
    c = size // 2
    cv2.line(kernel, (round(c - dx), round(c - dy)), (round(c + dx), round(c + dy)), 1.0, 1, cv2.LINE_AA)
    return kernel / kernel.sum()


CONTEXT = 24  # px of surroundings drawn round the 96 px top face: what a cut a quarter off takes in


def _surroundings(face: np.ndarray, body: float, rng: np.random.Generator) -> np.ndarray:
    """The top face on a mat of another grey, with sides of the die showing along one or two edges, its corners
    rounded, and sometimes a neighbouring die against it."""
    full = SIZE + 2 * CONTEXT
    mat = rng.uniform(30, 220)
    scene = np.full((full, full), mat, np.float32)
    scene += cv2.GaussianBlur(rng.normal(0, rng.uniform(0, 25), (full, full)).astype(np.float32), (0, 0), 3)
    c0, c1 = CONTEXT, CONTEXT + SIZE
    for edge in rng.choice(4, size=int(rng.integers(0, 3)), replace=False):  # sides seen off the camera's axis
        depth = int(rng.uniform(3, 20))
        shade = body * rng.uniform(0.5, 1.1)
        box = [(c0, c1, c1, c1 + depth), (c0, c1, c0 - depth, c0), (c1, c1 + depth, c0, c1), (c0 - depth, c0, c0, c1)]
        x0, x1, y0, y1 = box[edge]
        scene[y0:y1, x0:x1] = shade
    if rng.random() < 0.25:  # a neighbour touching one edge: another die's body and print
        other = rng.uniform(10, 70) if body < 120 else rng.uniform(170, 240)
        edge, gap = int(rng.integers(4)), int(rng.uniform(0, 6))
        x0, x1, y0, y1 = [
            (c1 + gap, full, c0, c1),
            (0, c0 - gap, c0, c1),
            (c0, c1, c1 + gap, full),
            (c0, c1, 0, c0 - gap),
        ][edge]
        scene[y0:y1, x0:x1] = other
    radius = int(rng.uniform(2, 12))  # the top's rounded corners
    top = np.zeros((SIZE, SIZE), np.uint8)
    cv2.rectangle(top, (radius, 0), (SIZE - 1 - radius, SIZE - 1), 255, -1)
    cv2.rectangle(top, (0, radius), (SIZE - 1, SIZE - 1 - radius), 255, -1)
    for x, y in [(radius, radius), (SIZE - 1 - radius, radius), (radius, SIZE - 1 - radius), (SIZE - 1 - radius,) * 2]:
        cv2.circle(top, (x, y), radius, 255, -1)
    inside = top > 0
    scene[c0:c1, c0:c1][inside] = face[inside]
    return scene
