"""Cut and embed: a die's top face squared up into a small patch, and the embedding network's 64 numbers for it.

The embedding (bench/learn/train_embed.py) was trained on thousands of procedural dice arts to put two
photos of one face near each other and photos of different faces (mirror images too) apart: faces of a
set it never saw are named by the nearest enrolled face (see decide).
"""

from __future__ import annotations

from collections.abc import Iterable

import cv2
import numpy as np

from .networks import run

EMBEDDING = "face-embed.onnx"
PATCH = 32  # px: the patch the embedding sees (the whole top face, as trained)


def cut_face(gray: np.ndarray, centre: tuple[float, float], turn: float, side: float) -> np.ndarray:
    """The square ``side`` px across at ``centre`` turned ``turn`` degrees, as a PATCH x PATCH patch of zero mean
    and unit spread (the die's colour and the light taken out, as the embedding was trained)."""
    # (OpenCV puts pixel k's centre at k, a photo's coordinates at k + 0.5: hence the half pixels)
    warp = np.array(cv2.getRotationMatrix2D((centre[0] - 0.5, centre[1] - 0.5), turn, PATCH / side), np.float64)
    warp[:, 2] += PATCH / 2 - np.asarray(centre, np.float64)
    patch = cv2.warpAffine(gray, warp, (PATCH, PATCH), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    patch = patch.astype(np.float32)
    return (patch - patch.mean()) / (patch.std() + 1e-3)


def embed(patches: Iterable[np.ndarray] | np.ndarray) -> np.ndarray:
    """Unit-length embeddings (n, 64) of face patches (n, PATCH, PATCH)."""
    stack = np.asarray(list(patches) if not isinstance(patches, np.ndarray) else patches, np.float32)
    if len(stack) == 0:
        return np.zeros((0, 64), np.float32)
    return run(EMBEDDING, stack[:, None])
