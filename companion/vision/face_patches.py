"""A die's top face cut out of a photo, squared up and made ready to compare with the enrolled faces.

A face is compared at PATCH x PATCH px, its bevelled rim left out (INNER) and its broad shading taken out:
lamps, highlights and shadows differ between the enrollment photos and the table, and outweighed the
pictogram in the comparison. Shared by enrollment and reading, so both see a face the same way.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import NamedTuple

import cv2
import numpy as np

from .blobs import Blob

PATCH = 40  # top faces are compared at 40x40 (about the photo's own resolution)
INNER = 0.84  # of the die's side: leave out the bevelled rim
MIN_INK = 10.0  # grey-level spread of a face: below this there is no pictogram, so no die
SHADING = 12.0  # patch px (a quarter of a face): light and shade varying over more than this is taken out
SHADING_BOX = int(np.sqrt(6 * SHADING**2 + 1)) | 1  # the box, twice over, with a Gaussian's spread (29 px)


def face_patch(
    image: np.ndarray,
    blob: Blob,
    side: float,
    shift: tuple[float, float] = (0, 0),
    turn: float = 0.0,
    squash: tuple[float, float] = (1.0, 1.0),
) -> np.ndarray:
    """The die's top face, squared up along its box, ``side`` px across (grey levels); ``squash`` scales the box's axes."""
    centre = (blob.center[0] + shift[0], blob.center[1] + shift[1])
    src = np.float32(_face_corners(Box(centre, blob.angle + turn, side, squash)))
    dst = np.float32([[0, 0], [PATCH, 0], [PATCH, PATCH]])
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    patch = cv2.warpAffine(gray, cv2.getAffineTransform(src, dst), (PATCH, PATCH), flags=cv2.INTER_AREA)
    return patch


def face_patches_of(gray: np.ndarray, boxes: list[Box]) -> np.ndarray:
    """`face_patch` of several boxes of a grey photo at once (count x PATCH x PATCH): one remap for all (each warp
    alone cost ~0.03 ms, most of it in calls; a die is classified at ~40 boxes round its blob's)."""
    uv = np.arange(PATCH) / PATCH  # each pixel's place, as a share of the patch's side (OpenCV's pixel u lies at u)
    top_left, top_right, bottom_right = np.array([_face_corners(box) for box in boxes]).transpose(1, 0, 2)
    corners, across, down = top_left, top_right - top_left, bottom_right - top_right
    maps = np.empty((2, len(boxes), PATCH, PATCH), np.float32)
    for axis in (0, 1):  # x, then y: a row's part plus a column's part
        np.add(
            (corners[:, axis, None] + down[:, axis, None] * uv)[:, :, None],
            (across[:, axis, None] * uv)[:, None, :],
            out=maps[axis],
            casting="unsafe",
        )
    maps = maps.reshape(2, len(boxes) * PATCH, PATCH)
    return cv2.remap(gray, maps[0], maps[1], cv2.INTER_LINEAR).reshape(len(boxes), PATCH, PATCH)


def _face_corners(box: Box) -> list[list[float]]:
    """Where a box's face patch has its top left, top right and bottom right corners in the photo."""
    (cx, cy), (fx, fy) = box.centre, box.squash
    hx, hy = box.side * INNER / 2 * fx, box.side * INNER / 2 * fy
    angle = np.deg2rad(box.angle)
    c, s = np.cos(angle), np.sin(angle)
    return [
        [cx - hx * c + hy * s, cy - hx * s - hy * c],
        [cx + hx * c + hy * s, cy + hx * s - hy * c],
        [cx + hx * c - hy * s, cy + hx * s + hy * c],
    ]


def normalise(patch: np.ndarray) -> np.ndarray:
    return normalise_all(patch[None])[0]


def normalise_all(patches: np.ndarray) -> np.ndarray:
    """Each patch lightly blurred, zero mean, unit norm, flattened: what correlation compares."""
    p = _unshaded(patches.astype(np.float32))
    p -= p.mean(axis=(1, 2), keepdims=True)
    norms = np.linalg.norm(p.reshape(len(p), -1), axis=1)
    return p.reshape(len(p), -1) / np.maximum(norms, 1e-6)[:, None]


class Box(NamedTuple):
    """A die-sized box to cut faces from: where, how turned (degrees), how big (``side`` px across the die's
    top face) and how squashed along its two axes (a leaning die's face, seen at a slant)."""

    centre: tuple[float, float]
    angle: float
    side: float
    squash: tuple[float, float] = (1.0, 1.0)


def shifted_faces(
    gray: np.ndarray,
    centre: tuple[float, float],
    angle: float,
    side: float,
    reach: int,
    step: int = 1,
    squash: tuple[float, float] = (1.0, 1.0),
    context: int = 0,
    min_ink: float = 0.0,
) -> tuple[np.ndarray, np.ndarray]:
    """Normalised patches of a die-sized box at every shift up to ``reach`` patch px (``step`` apart), from one
    warp of a larger window (each patch cut and warped alone costs ~20x more), and each one's centre in the photo.
    ``squash`` scales the box's axes, as for `face_patch`; ``context``: patch px more all round that the shading
    is judged over (a heap's tiles then see what one window over the whole heap would). ``min_ink``: leave out
    boxes whose grey levels spread less (no pictogram: mat, shadow, a dark object that is no die)."""
    vectors, centres, _ = shifted_faces_of(gray, [Box(centre, angle, side, squash)], reach, step, context, min_ink)
    return vectors, centres


def shifted_faces_of(
    gray: np.ndarray, boxes: list[Box], reach: int, step: int = 1, context: int = 0, min_ink: float = 0.0
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`shifted_faces` of several boxes at once, and which box each patch is of: their windows are filtered and
    normalised together (a search asks for nine turns or seven squashes of one place at a time, and each window
    alone cost ~0.15 ms of calls, more than its patches' own work)."""
    size = PATCH + 2 * reach + 2 * context
    tall = np.empty((len(boxes) * size, size), np.uint8)  # the windows one above the other
    axes = []
    for k, (centre, angle, side, squash) in enumerate(boxes):
        pu, pv = (side * INNER / PATCH * f for f in squash)  # photo px per patch px, along the box's axes
        a = math.radians(angle)
        c, s = math.cos(a), math.sin(a)
        # patch (u, v) -> photo: centre + (u - size/2) * pu * (c, s) + (v - size/2) * pv * (-s, c)
        forward = np.float32(
            [
                [c * pu, -s * pv, centre[0] - size / 2 * (pu * c - pv * s)],
                [s * pu, c * pv, centre[1] - size / 2 * (pu * s + pv * c)],
            ]
        )
        cv2.warpAffine(
            gray, forward, (size, size), tall[k * size : (k + 1) * size], flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
        )
        axes.append((centre[0], centre[1], pu * c, pu * s, -pv * s, pv * c))
    raw = tall.astype(np.float32)
    windows = _unshaded(raw.reshape(len(boxes), size, size))[:, context : size - context, context : size - context]
    offsets, du, dv = _shift_grid(reach, step)
    n = len(offsets)
    b, rows, cols = windows.strides
    views = np.lib.stride_tricks.as_strided(
        windows, (len(boxes), n, n, PATCH, PATCH), (b, rows * step, cols * step, rows, cols), writeable=False
    )
    axes = np.array(axes)
    x0, y0, ux, uy, vx, vy = (axes[:, i : i + 1] for i in range(6))
    centres = np.stack([x0 + du * ux + dv * vx, y0 + du * uy + dv * vy], axis=2).reshape(-1, 2)
    which = np.repeat(np.arange(len(boxes)), n * n)
    p = views.reshape(-1, PATCH * PATCH)  # one copy (none for a single box: then copy, the windows are read-only)
    if min_ink:
        inner = np.s_[context : size - context, context : size - context]
        inky = np.concatenate(
            [(spreads(raw[k * size : (k + 1) * size][inner], offsets) >= min_ink).ravel() for k in range(len(boxes))]
        )
        p, centres, which = p[inky], centres[inky], which[inky]
    if not p.flags.writeable:
        p = p.copy()
    p -= p.mean(axis=1, keepdims=True)
    p /= np.maximum(np.sqrt(np.einsum("ij,ij->i", p, p)), 1e-6)[:, None]
    return p, centres, which


def _unshaded(stack: np.ndarray) -> np.ndarray:
    """Square patches or windows (float32, stacked: count x size x size) each lightly blurred, less its shading:
    what varies over more than about a quarter of a face (a lamp's highlight on a glossy top, a shadow across it,
    light falling off to one side) differs between the enrollment photos and the table, and outweighed the
    pictogram in the comparison. Both filters, borders and all, are matrices on a window's rows and columns, so
    the stack is a few matrix products (the filters one window at a time cost 2-8x more in calls)."""
    light, shading = _filters(stack.shape[1])
    return light @ stack @ light.T - shading @ stack @ shading.T


@lru_cache(maxsize=160)  # sizes run from a patch (40) to a heap's tile and its context (172): all fit
def _filters(size: int) -> tuple[np.ndarray, np.ndarray]:
    """The matrices of `_unshaded`'s light blur and its shading (a box blur twice: near a Gaussian of SHADING px)
    along one axis of a ``size``-square window, each with OpenCV's default border (reflected about the edge pixel)."""

    def along_axis(kernel: np.ndarray) -> np.ndarray:
        half, matrix = len(kernel) // 2, np.zeros((size, size))
        for i in range(size):
            for j, weight in enumerate(kernel):
                k = abs(i + j - half)  # reflected about the first pixel, then about the last
                matrix[i, k if k < size else 2 * size - 2 - k] += weight
        return matrix

    box = along_axis(np.full(SHADING_BOX, 1.0 / SHADING_BOX))
    return (along_axis(cv2.getGaussianKernel(3, 0.7).ravel()).astype(np.float32), (box @ box).astype(np.float32))


@lru_cache(maxsize=64)
def _shift_grid(reach: int, step: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`shifted_faces`' box offsets in its window, and each box's shift (patch px) across and down, row by row
    (the same few grids are asked for thousands of times a photo: numpy's small-array calls add up)."""
    offsets = np.arange(0, 2 * reach + 1, step)
    return offsets, np.tile(offsets - reach, len(offsets)), np.repeat(offsets - reach, len(offsets))


def spreads(window: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """[i, j]: the grey levels' standard deviation in the PATCH-square box at (offsets[i], offsets[j]) of the
    window (rows, columns), from running sums (one pass over the window, not one per box)."""
    sums, squares = cv2.integral2(window.astype(np.float64))
    i, j = offsets[:, None], offsets[None, :]

    def total(table: np.ndarray) -> np.ndarray:
        return table[i + PATCH, j + PATCH] - table[i, j + PATCH] - table[i + PATCH, j] + table[i, j]

    n = PATCH * PATCH
    return np.sqrt(np.maximum(total(squares) / n - (total(sums) / n) ** 2, 0.0))


def sharpness(patch: np.ndarray) -> float:
    return float(cv2.Laplacian(patch, cv2.CV_32F).var())


def ink(patch: np.ndarray) -> float:
    """Contrast inside the face: a pictogram has it, a patch of mat or shadow has not."""
    return float(patch.std())


def grey(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image


def edge_angle(gray: np.ndarray, centre: tuple[float, float], reach: float) -> float:
    """The turn (degrees, mod 90) the edges within ``reach`` of ``centre`` agree on: a die's outline, and its
    visible sides and shadow, which run with it. Each edge is weighted by the square root of its strength, so a
    few strong pictogram strokes or a lit side's edge cannot outvote the outline."""
    r, x, y = int(reach), int(centre[0]), int(centre[1])
    window = gray[max(0, y - r) : y + r, max(0, x - r) : x + r].astype(np.float32)
    if window.size < 16:
        return 0.0
    window = cv2.GaussianBlur(window, (0, 0), 1.0)
    gx, gy = cv2.Sobel(window, cv2.CV_32F, 1, 0), cv2.Sobel(window, cv2.CV_32F, 0, 1)
    weight, phi = np.sqrt(np.hypot(gx, gy)), np.arctan2(gy, gx)
    # edges of a square point four ways: average the angle four times over
    return float(np.rad2deg(np.arctan2((weight * np.sin(4 * phi)).sum(), (weight * np.cos(4 * phi)).sum()) / 4))


def die_turn(gray: np.ndarray, centre: tuple[float, float], side: float) -> float:
    """How a die at ``centre`` is turned, as the edges a little beyond its face agree (its outline, sides, shadow)."""
    return edge_angle(gray, centre, 0.6 * side)
