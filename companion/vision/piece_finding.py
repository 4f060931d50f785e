"""Find: where Sepulchre pieces lie, by the piece finder network (bench/learn/train_piece_finder.py).

The board (warped flat, or the photo) is shrunk so its pieces are as big as the finder learned them
(FINDER_PIECE_AREA, judged by the enrolled pieces' size), and the finder says, for every 4x4 px cell
of it, how likely a piece of each type has its centre there, how likely the middle of two pieces lying
across each other, and the centre's place in the cell. Peaks are pieces. The finder knows pieces only
from rendered boards: the reader asks it where its own outlines cannot tell (pieces touching).
"""

from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy as np

from .finding import heat_peaks

PIECE_FINDER = "piece-finder.onnx"
FINDER_PIECE_AREA = 500.0  # px²: a median piece's area at the finder's working scale (as trained)
OVERLAP = 5  # the finder's channel for two pieces lying across each other (after the five types')
HEATS = 6  # heat maps: the five types' and the overlapping pairs'; then the centre's offset in its cell (x, y)
CHANNELS = HEATS + 2
DILATIONS = (1, 2, 4, 8, 1)  # the network's separable layers (train_finder.network): ~135 px of context
PEAK = 0.3  # a peak at least this likely is reported


class PieceSpot(NamedTuple):
    """A piece (or an overlapping pair) the finder saw: its centre in the grey image's px, and how likely each of
    the HEATS things lies there (the five types, then an overlapping pair)."""

    centre: tuple[float, float]
    heats: np.ndarray

    @property
    def channel(self) -> int:
        return int(np.argmax(self.heats))

    @property
    def likelihood(self) -> float:
        return float(self.heats.max())


def find_pieces(gray: np.ndarray, piece_area: float) -> list[PieceSpot]:
    """The pieces in a grey image whose median piece is ``piece_area`` px² (its own px), likeliest first."""
    scale = float(np.sqrt(FINDER_PIECE_AREA / piece_area))
    smoothing = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    peaks = heat_peaks(PIECE_FINDER, gray, scale, heats=HEATS, floor=PEAK, interpolation=smoothing)
    return sorted((PieceSpot(p.centre, p.heat) for p in peaks), key=lambda s: -s.likelihood)
