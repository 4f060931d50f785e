"""Cut and embed: a die's top face squared up into a small patch, and the embedding network's 64 numbers for it.

The embedding (bench/learn/train_embed.py) was trained on thousands of procedural dice arts to put two
photos of one face near each other and photos of different faces (mirror images too) apart: faces of a
set it never saw are named by the nearest enrolled face (see decide).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

import cv2
import numpy as np

from .networks import run

EMBEDDING = "face-embed.onnx"
PATCH = 32  # px: the patch the embedding sees (the whole top face, as trained)
LIGHT_SIGMA = 4.0  # px of the patch: light varying more slowly than this (a sheen, a lamp's fall-off) is taken out
CONTRAST_FLOOR = 0.2  # local spread (of the patch's own) below which a place is flat, not faint print


def cut_face(gray: np.ndarray, centre: tuple[float, float], turn: float, side: float) -> np.ndarray:
    """The square ``side`` px across at ``centre`` turned ``turn`` degrees, as a PATCH x PATCH patch (grey
    levels: ``embed`` normalises)."""
    return cut_square(gray, centre, turn, side, PATCH)


def square_warp(centre: tuple[float, float], turn: float, side: float, size: int) -> np.ndarray:
    """The 2x3 map from a photo to a size x size patch of the square ``side`` px across at ``centre``, turned
    ``turn`` degrees."""
    # (OpenCV puts pixel k's centre at k, a photo's coordinates at k + 0.5: hence the half pixels)
    warp = np.array(cv2.getRotationMatrix2D((centre[0] - 0.5, centre[1] - 0.5), turn, size / side), np.float64)
    warp[:, 2] += size / 2 - np.asarray(centre, np.float64)
    return warp


def cut_square(gray: np.ndarray, centre: tuple[float, float], turn: float, side: float, size: int) -> np.ndarray:
    """The square ``side`` px across at ``centre`` turned ``turn`` degrees, as a size x size patch."""
    return warped(gray, square_warp(centre, turn, side, size), size)


def warped(gray: np.ndarray, warp: np.ndarray, size: int) -> np.ndarray:
    """The size x size patch a photo maps to by ``warp`` (the photo's edge repeated beyond it)."""
    return cv2.warpAffine(gray, warp, (size, size), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def normalise(patches: np.ndarray) -> np.ndarray:
    """Face patches ((n,) size, size) with the light taken out, as the embedding was trained: local contrast
    normalisation (each patch less its blurred self, over its local spread), then zero mean and unit spread.
    A glossy top's sheen or a lamp's fall-off across the face changes slowly and goes; the print's edges stay,
    even where a highlight has left them faint."""
    x = np.asarray(patches, np.float32)
    blur = _blur_matrix(x.shape[-1])  # the patch's Gaussian blur as blur @ x @ blur.T: one product for a batch
    x = _standardised(x)
    detail = x - blur @ x @ blur.T
    spread = np.sqrt(blur @ (detail * detail) @ blur.T)
    return _standardised(detail / (spread + CONTRAST_FLOOR))


def _standardised(x: np.ndarray) -> np.ndarray:
    return (x - x.mean(axis=(-2, -1), keepdims=True)) / (x.std(axis=(-2, -1), keepdims=True) + 1e-3)


@functools.lru_cache(maxsize=4)
def _blur_matrix(size: int) -> np.ndarray:
    """OpenCV's Gaussian blur (LIGHT_SIGMA, mirrored at the edges) along one axis of a size-px patch, as a matrix."""
    eye = np.eye(size, dtype=np.float32)
    return np.stack(
        [
            cv2.GaussianBlur(eye[:, [j]], (1, 0), 0, sigmaY=LIGHT_SIGMA, borderType=cv2.BORDER_REFLECT)[:, 0]
            for j in range(size)
        ],
        axis=1,
    )


def embed(patches: Iterable[np.ndarray] | np.ndarray) -> np.ndarray:
    """Unit-length embeddings (n, 64) of face patches (n, PATCH, PATCH) as cut, normalised here all at once."""
    stack = np.asarray(list(patches) if not isinstance(patches, np.ndarray) else patches, np.float32)
    if len(stack) == 0:
        return np.zeros((0, 64), np.float32)
    return run(EMBEDDING, normalise(stack)[:, None])
