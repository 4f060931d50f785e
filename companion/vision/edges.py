"""How steeply the grey level changes: what tells a cut edge or a die's print from a soft shadow or a reflection."""

from __future__ import annotations

import cv2
import numpy as np


def slope(grey: np.ndarray) -> np.ndarray:
    """The grey level's slope at each pixel of ``grey``, in grey levels a px (Sobel's 3x3 weights sum to 8)."""
    patch = grey.astype(np.float32)
    return np.hypot(cv2.Sobel(patch, cv2.CV_32F, 1, 0), cv2.Sobel(patch, cv2.CV_32F, 0, 1)) / 8
