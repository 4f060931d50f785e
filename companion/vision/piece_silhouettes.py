"""The enrolled pieces' silhouettes: each laid along its long axis at one size, so that pieces of one type lie
alike whatever their size, place and turn; a blob is matched against them to tell one piece from two lying
along each other (pieces.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

if TYPE_CHECKING:
    from .pieces import Shape

SILHOUETTE = 96  # px: a named blob's silhouette is laid on a canvas this wide ...
SILHOUETTE_SIDE = 22  # ... along its long axis, as big as a square this wide ...
SILHOUETTE_TURNS = (-8, -4, 0, 4, 8)  # ... its long axis found to within these degrees


class Silhouettes:
    """The enrolled pieces' silhouettes, each laid along its long axis at one size, and the views a blob of the
    type may match: each turned a few degrees either way, end for end and mirrored (limbs come both ways)."""

    def __init__(self, laid: np.ndarray, labels: list[str]):
        self.laid, self.labels = laid, labels
        self._views: dict[str, tuple[np.ndarray, np.ndarray]] = {}  # per type: the views packed, and their sizes
        for kind in set(labels):
            views = [
                _turned(flipped, angle)
                for one, label in zip(laid, labels)
                if label == kind
                for flipped in (one, one[:, ::-1], one[::-1, :], one[::-1, ::-1])
                for angle in SILHOUETTE_TURNS
            ]
            self._views[kind] = np.stack([_bits(v) for v in views]), np.array([np.count_nonzero(v) for v in views])
        self._grown: dict[tuple[str, int], np.ndarray] = {}  # per type and slack: the views grown, packed
        self._agreement: dict[tuple[str, int], float] = {}  # per type and slack: see agreement

    @classmethod
    def of(cls, pieces: list[tuple[str, Shape]]) -> Silhouettes:
        return cls(np.stack([_silhouette(piece.outline) for _, piece in pieces]), [kind for kind, _ in pieces])

    def fit(self, shape: Shape, kind: str, slack: int) -> float:
        """How well the blob lies on some enrolled piece of the type: 1 less the share of it off that piece's
        outline (grown by ``slack`` px) and of that piece off its own, at the best view."""
        return float(1 - self._off(_silhouette(shape.outline), kind, slack).min())

    def _off(self, laid: np.ndarray, kind: str, slack: int) -> np.ndarray:
        """Per view of the type: the share of ``laid`` off the view's outline grown by ``slack`` px, plus the share
        of the view off ``laid``'s."""
        views, sizes = self._views[kind]
        if (kind, slack) not in self._grown:
            unpacked = np.unpackbits(views.view(np.uint8), axis=1).reshape(-1, SILHOUETTE, SILHOUETTE).astype(bool)
            self._grown[kind, slack] = np.stack([_bits(_grown(v, slack)) for v in unpacked])
        own, own_grown = _bits(laid), _bits(_grown(laid, slack))
        return _popcount(own & ~self._grown[kind, slack]).sum(axis=1) / max(1, np.count_nonzero(laid)) + _popcount(
            views & ~own_grown
        ).sum(axis=1) / sizes.clip(1)

    def agreement(self, kind: str, slack: int) -> float | None:
        """The worst fit of an enrolled piece of the type to the others' views (its own left out), or None with
        fewer than two: how alike the type's pieces are."""
        own = [i for i, label in enumerate(self.labels) if label == kind]
        if len(own) < 2:
            return None
        if (kind, slack) not in self._agreement:
            per_piece = len(self._views[kind][0]) // len(own)  # views are stacked piece by piece
            worst = 1.0
            for n, i in enumerate(own):
                off = self._off(self.laid[i], kind, slack)
                off[n * per_piece : (n + 1) * per_piece] = np.inf
                worst = min(worst, float(1 - off.min()))
            self._agreement[kind, slack] = worst
        return self._agreement[kind, slack]

    def arrays(self) -> dict[str, np.ndarray]:
        return {"silhouettes": np.packbits(self.laid, axis=-1), "silhouette_labels": np.array(self.labels)}

    @classmethod
    def from_arrays(cls, d: Any) -> Silhouettes | None:
        if "silhouettes" not in d:
            return None  # a set saved before silhouettes were kept reads as before
        laid = np.unpackbits(d["silhouettes"], axis=-1, count=SILHOUETTE).astype(bool)
        return cls(laid, [str(x) for x in d["silhouette_labels"]])


def _silhouette(contour: np.ndarray) -> np.ndarray:
    """The filled outline turned to lie along its long axis, its centre of mass at the canvas's, scaled to the
    area of a SILHOUETTE_SIDE square: pieces of one type lie alike there whatever their size, place and turn."""
    filled, _ = filled_outline(contour, pad=2)
    m = cv2.moments(filled, True)
    cx, cy = m["m10"] / m["m00"], m["m01"] / m["m00"]
    axis = 0.5 * np.degrees(np.arctan2(2 * m["mu11"], m["mu20"] - m["mu02"]))
    turn = cv2.getRotationMatrix2D((cx, cy), axis, SILHOUETTE_SIDE / np.sqrt(m["m00"]))
    turn[:, 2] += np.array([SILHOUETTE / 2 - cx, SILHOUETTE / 2 - cy])
    return cv2.warpAffine(filled, turn, (SILHOUETTE, SILHOUETTE), flags=cv2.INTER_LINEAR) > 127


def _turned(laid: np.ndarray, angle: float) -> np.ndarray:
    turn = cv2.getRotationMatrix2D((SILHOUETTE / 2, SILHOUETTE / 2), angle, 1.0)
    return cv2.warpAffine(laid.astype(np.uint8) * 255, turn, (SILHOUETTE, SILHOUETTE)) > 127


def _bits(laid: np.ndarray) -> np.ndarray:
    """A silhouette packed 64 pixels to a word: comparing hundreds of views a blob is then ~0.2 ms, not 3."""
    return np.packbits(laid.reshape(-1)).view(np.uint64)


def _popcount(words: np.ndarray) -> np.ndarray:
    """Set bits per 64-bit word: numpy's bitwise_count where it has one (2.0+; Raspberry Pi OS ships 1.24, which
    counts them here, five times slower)."""
    if hasattr(np, "bitwise_count"):
        return np.bitwise_count(words)
    words = words - ((words >> np.uint64(1)) & np.uint64(0x5555555555555555))
    words = (words & np.uint64(0x3333333333333333)) + ((words >> np.uint64(2)) & np.uint64(0x3333333333333333))
    words = (words + (words >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return (words * np.uint64(0x0101010101010101)) >> np.uint64(56)


def _grown(laid: np.ndarray, slack: int) -> np.ndarray:
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * slack + 1, 2 * slack + 1))
    return cv2.dilate(laid.astype(np.uint8), kernel) > 0


def filled_outline(contour: np.ndarray, pad: int = 0) -> tuple[np.ndarray, tuple[int, int]]:
    """The outline filled in on a canvas of its own box, ``pad`` px more all round, and where the canvas's
    top-left corner lies in the mask the outline came from."""
    x, y, w, h = cv2.boundingRect(contour)
    canvas = np.zeros((h + 2 * pad, w + 2 * pad), np.uint8)
    cv2.drawContours(canvas, [contour - np.array([x - pad, y - pad], np.int32)], -1, 255, -1)
    return canvas, (x - pad, y - pad)
