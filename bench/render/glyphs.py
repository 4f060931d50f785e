"""Pictograms for the 18 faces, drawn with OpenCV primitives in several art styles.

Left faces are drawn, right faces are their mirror images (as on the real
dice). Every glyph carries its printed number in a corner, so no glyph is
symmetric under a mirror: a reader that ignores handedness fails on them.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.games.rolling_bones.dice import FACES

SIZE = 96  # glyphs are drawn on a 96x96 canvas, then scaled to the die
FRAMED = 3  # the art style whose pictograms sit in a ring, the number at the bottom right
DIAGONAL = 4  # the art style whose pictograms are thin and turned 45 degrees, the number at the top right
THIN_STROKES = {FRAMED: 5, DIAGONAL: 4}  # px on the canvas; the other styles' strokes are 6 + style % 3


def _bone(img, a, b, t, ink):
    """A long bone: two knobs at ``b``, one head set off to one side at ``a`` (so it is chiral, like a real bone)."""
    cv2.line(img, a, b, ink, t, cv2.LINE_AA)
    v = np.subtract(b, a).astype(float)
    n = np.array([-v[1], v[0]]) / (np.linalg.norm(v) + 1e-9)
    for side in (1, -1):
        cv2.circle(img, tuple(int(c) for c in np.add(b, n * t * 0.8 * side)), int(t * 0.9), ink, -1, cv2.LINE_AA)
    head = np.add(a, n * t * 1.3)
    cv2.circle(img, tuple(int(c) for c in head), int(t * 1.3), ink, -1, cv2.LINE_AA)


def _left_glyph(face: str, img, t: int, ink, variant: int) -> None:
    part = face.split("-", 1)[1]
    if part == "upper-arm":
        _bone(img, (28, 24), (70, 66), t, ink)
    elif part == "forearm":
        _bone(img, (24, 30), (72, 56), t, ink)
        _bone(img, (26, 44), (70, 70), max(2, t - 2), ink)
    elif part == "hand":
        cv2.ellipse(img, (46, 62), (16, 12), 20, 0, 360, ink, -1, cv2.LINE_AA)
        for ang in (-60, -30, 0, 25):
            r = np.deg2rad(ang - 90)
            end = (int(46 + 30 * np.cos(r)), int(60 + 30 * np.sin(r)))
            cv2.line(img, (46, 58), end, ink, max(2, t - 2), cv2.LINE_AA)
        cv2.line(img, (34, 66), (18, 52), ink, max(2, t - 2), cv2.LINE_AA)  # thumb on one side only
    elif part == "thigh":
        _bone(img, (44, 24), (62, 80), t + 1, ink)
        cv2.circle(img, (36, 26), t + 2, ink, -1, cv2.LINE_AA)  # femoral head
    elif part == "lower-leg":
        _bone(img, (38, 18), (50, 78), t, ink)
        cv2.line(img, (58, 22), (64, 74), ink, max(2, t - 3), cv2.LINE_AA)
    elif part == "foot":
        pts = np.array([[30, 30], [44, 28], [48, 60], [74, 70], [74, 78], [30, 78]], np.int32)
        cv2.fillPoly(img, [pts], ink, cv2.LINE_AA)
    if variant:
        cv2.circle(img, (70, 26), 4, ink, -1, cv2.LINE_AA)


def _center_glyph(face: str, img, t: int, ink, variant: int) -> None:
    if face == "hat":
        cv2.rectangle(img, (32, 26), (64, 64), ink, -1)
        cv2.rectangle(img, (20, 62), (78, 70), ink, -1)
        cv2.line(img, (32, 54), (64, 54), (0, 0, 0), 3)
    elif face == "skull":
        cv2.circle(img, (48, 44), 22, ink, -1, cv2.LINE_AA)
        cv2.rectangle(img, (38, 58), (58, 74), ink, -1)
        cv2.circle(img, (40, 42), 6, (0, 0, 0), -1, cv2.LINE_AA)
        cv2.circle(img, (56, 42), 6, (0, 0, 0), -1, cv2.LINE_AA)
        cv2.line(img, (48, 50), (48, 56), (0, 0, 0), 2)
    elif face == "ribcage":
        cv2.line(img, (48, 18), (48, 80), ink, t, cv2.LINE_AA)
        for y in (28, 40, 52, 64):
            cv2.ellipse(img, (48, y), (24, 9), 0, 180, 360, ink, max(2, t - 2), cv2.LINE_AA)
    elif face == "spine":
        for y in range(18, 80, 12):
            cv2.rectangle(img, (40, y), (56, y + 8), ink, -1)
            cv2.line(img, (34, y + 4), (62, y + 4), ink, 2)
    elif face == "pelvis":
        cv2.ellipse(img, (34, 46), (16, 20), -20, 0, 360, ink, -1, cv2.LINE_AA)
        cv2.ellipse(img, (62, 46), (16, 20), 20, 0, 360, ink, -1, cv2.LINE_AA)
        cv2.circle(img, (34, 50), 6, (0, 0, 0), -1, cv2.LINE_AA)
        cv2.circle(img, (62, 50), 6, (0, 0, 0), -1, cv2.LINE_AA)
        cv2.rectangle(img, (42, 62), (54, 80), ink, -1)
    elif face == "gravestone":
        cv2.ellipse(img, (48, 38), (22, 18), 0, 180, 360, ink, -1, cv2.LINE_AA)
        cv2.rectangle(img, (26, 38), (70, 80), ink, -1)
        cv2.line(img, (48, 30), (48, 62), (0, 0, 0), 4)
        cv2.line(img, (38, 42), (58, 42), (0, 0, 0), 4)
    if variant:
        cv2.circle(img, (22, 22), 3, ink, -1, cv2.LINE_AA)


def glyph(face: str, style: int = 0) -> np.ndarray:
    """A 96x96 mask (uint8, 255 = ink) of ``face`` in art ``style`` (0, 1, 2; FRAMED, DIAGONAL; …)."""
    img = np.zeros((SIZE, SIZE, 3), np.uint8)
    ink = (255, 255, 255)
    thickness = THIN_STROKES.get(style, 6 + style % 3)
    kind, number = FACES[face]
    base = face if kind != "right" else face.replace("right-", "left-")
    if kind == "center":
        _center_glyph(face, img, thickness, ink, style % 2)
    else:
        _left_glyph(base, img, thickness, ink, style % 2)
    # the printed number, drawn before any mirroring so it mirrors too
    if style == DIAGONAL:
        # other art: a thin pictogram turned 45 degrees, the number at the top right
        turn = cv2.getRotationMatrix2D((SIZE / 2, SIZE / 2), 45, 0.9)
        img = cv2.warpAffine(img, turn, (SIZE, SIZE), flags=cv2.INTER_LINEAR)
        cv2.putText(img, str(number), (66, 26), cv2.FONT_HERSHEY_SIMPLEX, 0.9, ink, 2, cv2.LINE_AA)
    elif style == FRAMED:
        # other art: a thin pictogram in a ring every face shares, the number small at the bottom right
        img = cv2.resize(img, None, fx=0.8, fy=0.8, interpolation=cv2.INTER_AREA)
        img = cv2.copyMakeBorder(img, 10, SIZE - 10 - img.shape[0], 10, SIZE - 10 - img.shape[1], cv2.BORDER_CONSTANT)
        cv2.circle(img, (SIZE // 2, SIZE // 2), 44, ink, 3, cv2.LINE_AA)
        cv2.putText(img, str(number), (70, 90), cv2.FONT_HERSHEY_DUPLEX, 0.8, ink, 2, cv2.LINE_AA)
    else:  # top left
        font = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_PLAIN)[style % 3]
        cv2.putText(
            img,
            str(number),
            (4, 30 if style % 3 != 2 else 28),
            font,
            1.1 if style % 3 != 2 else 2.2,
            ink,
            3,
            cv2.LINE_AA,
        )
    mask = img[:, :, 0]
    if kind == "right":
        mask = mask[:, ::-1].copy()
    return mask
