"""Laying a square sprite (a die, a piece's mask, art or colours) turned onto a bigger image, warping only the
window it can cover: a whole-image warp and blend per sprite was most of a rendered scene's time."""

from __future__ import annotations

import cv2
import numpy as np

Window = tuple[slice, slice]  # an image's rows and columns a sprite covers


def turned_onto(
    sprite: np.ndarray, x: float, y: float, angle: float, width: int, height: int, margin: int = 0
) -> tuple[Window, np.ndarray]:
    """``sprite`` (square) turned ``angle`` degrees and centred at (x, y) on a ``width`` x ``height`` image: the
    image's window it covers (``margin`` px more round it; at least a px, inside the image) and the sprite warped
    into it (zeros where it does not reach)."""
    size = sprite.shape[0]
    reach = size * 0.71 + 2 + margin  # half the square's diagonal: all it covers at any turn, and a px to blend
    x0, y0 = min(width - 1, max(0, int(x - reach))), min(height - 1, max(0, int(y - reach)))
    x1, y1 = max(x0 + 1, min(width, int(x + reach) + 1)), max(y0 + 1, min(height, int(y + reach) + 1))
    m = cv2.getRotationMatrix2D((size / 2, size / 2), angle, 1.0)
    m[0, 2] += x - size / 2 - x0
    m[1, 2] += y - size / 2 - y0
    return (slice(y0, y1), slice(x0, x1)), cv2.warpAffine(sprite, m, (x1 - x0, y1 - y0))
