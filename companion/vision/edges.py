"""How steeply the grey level changes: what tells a cut edge or a die's print from a soft shadow or a reflection."""

from __future__ import annotations

import cv2
import numpy as np


def slope(grey: np.ndarray) -> np.ndarray:
    """The grey level's slope at each pixel of ``grey``, in grey levels a px (Sobel's 3x3 weights sum to 8)."""
    patch = grey.astype(np.float32)
    return np.hypot(cv2.Sobel(patch, cv2.CV_32F, 1, 0), cv2.Sobel(patch, cv2.CV_32F, 0, 1)) / 8


def percentile_at_least(values: np.ndarray, percent: float, bar: float) -> bool:
    """Whether ``np.percentile(values, percent) >= bar``, said by counting where the count settles it (the two values
    the percentile lies between are both at least ``bar``, or both under it): a partial sort of every value is slow."""
    n = values.size
    rank = percent / 100 * (n - 1)
    below = int(np.floor(rank))
    at_least = int(np.count_nonzero(values >= bar))
    if at_least >= n - below:  # the value at ``below`` (ascending) and all above it
        return True
    if at_least < n - below - 1 or rank == below:  # the value above ``below`` is under it too, or it is exact
        return False
    return float(np.percentile(values, percent)) >= bar
