"""A die's top face cut out of a photo, squared up and made ready to compare with the enrolled faces.

A face is compared at PATCH x PATCH px, its bevelled rim left out (INNER) and its broad shading taken out:
lamps, highlights and shadows differ between the enrollment photos and the table, and outweighed the
pictogram in the comparison. Shared by enrollment and reading, so both see a face the same way.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from .blobs import Blob

PATCH = 40            # top faces are compared at 40x40 (about the photo's own resolution)
INNER = 0.84          # of the die's side: leave out the bevelled rim
MIN_INK = 10.0        # grey-level spread of a face: below this there is no pictogram, so no die
SHADING = 12.0        # patch px (a quarter of a face): light and shade varying over more than this is taken out
SHADING_BOX = int(np.sqrt(6 * SHADING ** 2 + 1)) | 1  # the box, twice over, with a Gaussian's spread (29 px)


def face_patch(image: np.ndarray, blob: Blob, side: float, shift: tuple[float, float] = (0, 0), turn: float = 0.0,
               squash: tuple[float, float] = (1.0, 1.0)) -> np.ndarray:
    """The die's top face, squared up along its box, ``side`` px across (grey levels); ``squash`` scales the box's axes."""
    hx, hy = side * INNER / 2 * squash[0], side * INNER / 2 * squash[1]
    (cx, cy), angle = (blob.center[0] + shift[0], blob.center[1] + shift[1]), np.deg2rad(blob.angle + turn)
    c, s = np.cos(angle), np.sin(angle)
    src = np.float32([[cx - hx * c + hy * s, cy - hx * s - hy * c],
                      [cx + hx * c + hy * s, cy + hx * s - hy * c],
                      [cx + hx * c - hy * s, cy + hx * s + hy * c]])
    dst = np.float32([[0, 0], [PATCH, 0], [PATCH, PATCH]])
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    patch = cv2.warpAffine(gray, cv2.getAffineTransform(src, dst), (PATCH, PATCH), flags=cv2.INTER_AREA)
    return patch


def normalise(patch: np.ndarray) -> np.ndarray:
    return normalise_all(patch[None])[0]


def normalise_all(patches: np.ndarray) -> np.ndarray:
    """Each patch lightly blurred, zero mean, unit norm, flattened: what correlation compares."""
    p = _unshaded_patches(patches.astype(np.float32))
    p -= p.mean(axis=(1, 2), keepdims=True)
    norms = np.linalg.norm(p.reshape(len(p), -1), axis=1)
    return p.reshape(len(p), -1) / np.maximum(norms, 1e-6)[:, None]


def _unshaded(patch: np.ndarray) -> np.ndarray:
    """A patch (float32) lightly blurred, less its shading: what varies over more than about a quarter of a face
    (a lamp's highlight on a glossy top, a shadow across it, light falling off to one side) differs between
    the enrollment photos and the table, and outweighed the pictogram in the comparison."""
    box = (SHADING_BOX, SHADING_BOX)  # twice a box blur is near a Gaussian of SHADING px, at a fraction of its cost
    return cv2.GaussianBlur(patch, (3, 3), 0.7) - cv2.blur(cv2.blur(patch, box), box)


def _unshaded_patches(patches: np.ndarray) -> np.ndarray:
    """`_unshaded` of a stack of PATCH-square patches at once: both filters, borders and all, are matrices on
    a patch's rows and columns, so the stack is two matrix products (the filters one patch at a time cost ~8x more)."""
    light, shading = _patch_filters()
    return light @ patches @ light.T - shading @ patches @ shading.T


@lru_cache(maxsize=1)
def _patch_filters() -> tuple[np.ndarray, np.ndarray]:
    """The matrices of `_unshaded`'s light blur and its shading (the box blur twice) along one axis of a patch,
    each with OpenCV's default border (reflected about the edge pixel)."""
    def along_axis(kernel: np.ndarray) -> np.ndarray:
        half, matrix = len(kernel) // 2, np.zeros((PATCH, PATCH))
        for i in range(PATCH):
            for j, weight in enumerate(kernel):
                k = abs(i + j - half)  # reflected about the first pixel, then about the last
                matrix[i, k if k < PATCH else 2 * PATCH - 2 - k] += weight
        return matrix

    box = along_axis(np.full(SHADING_BOX, 1.0 / SHADING_BOX))
    return (along_axis(cv2.getGaussianKernel(3, 0.7).ravel()).astype(np.float32),
            (box @ box).astype(np.float32))


def shifted_faces(gray: np.ndarray, centre: tuple[float, float], angle: float, side: float, reach: int,
                  step: int = 1, squash: tuple[float, float] = (1.0, 1.0),
                  context: int = 0, min_ink: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Normalised patches of a die-sized box at every shift up to ``reach`` patch px (``step`` apart), from one
    warp of a larger window (each patch cut and warped alone costs ~20x more), and each one's centre in the photo.
    ``squash`` scales the box's axes, as for `face_patch`; ``context``: patch px more all round that the shading
    is judged over (a heap's tiles then see what one window over the whole heap would). ``min_ink``: leave out
    boxes whose grey levels spread less (no pictogram: mat, shadow, a dark object that is no die)."""
    size = PATCH + 2 * reach + 2 * context
    pu, pv = (side * INNER / PATCH * k for k in squash)  # photo px per patch px, along the box's axes
    a = np.deg2rad(angle)
    c, s = np.cos(a), np.sin(a)
    # patch (u, v) -> photo: centre + (u - size/2) * pu * (c, s) + (v - size/2) * pv * (-s, c)
    forward = np.float32([[c * pu, -s * pv, centre[0] - size / 2 * (pu * c - pv * s)],
                          [s * pu, c * pv, centre[1] - size / 2 * (pu * s + pv * c)]])
    raw = cv2.warpAffine(gray, forward, (size, size), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP).astype(np.float32)
    inner = np.s_[context:size - context, context:size - context]  # the boxes' window, less the context
    window = _unshaded(raw)[inner]
    offsets, du, dv = _shift_grid(reach, step)
    inky = (spreads(raw[inner], offsets) >= min_ink).ravel() if min_ink else None
    rows, cols = window.strides
    views = np.lib.stride_tricks.as_strided(window, (len(offsets), len(offsets), PATCH, PATCH),
                                            (rows * step, cols * step, rows, cols), writeable=False)
    p = views.reshape(-1, PATCH * PATCH)  # one copy (none for a single box: then copy, the window is read-only)
    if inky is not None:
        p = p[inky]
    if not p.flags.writeable:
        p = p.copy()
    p -= p.mean(axis=1, keepdims=True)
    p /= np.maximum(np.sqrt(np.einsum("ij,ij->i", p, p)), 1e-6)[:, None]
    centres = np.empty((len(du), 2))
    centres[:, 0] = centre[0] + du * pu * c - dv * pv * s
    centres[:, 1] = centre[1] + du * pu * s + dv * pv * c
    return p, (centres if inky is None else centres[inky])


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
    visible sides and shadow, which run with it. Each edge is weighted by the square root of its strength (by
    its square, a few strong pictogram strokes or a lit side's edge outvoted the outline: enrollment tops
    were 20-45 degrees off on 82 of 450 photos)."""
    r, x, y = int(reach), int(centre[0]), int(centre[1])
    window = gray[max(0, y - r):y + r, max(0, x - r):x + r].astype(np.float32)
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
