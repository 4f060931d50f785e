"""The annotated photo the kiosk shows: every die outlined and named, green read, amber unreadable."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np


@dataclass
class _Mark:
    """A die drawn on the annotated photo: its circle and its label (the first of ``texts`` that fits)."""

    center: list[float]
    radius: float  # px on a 1600 px wide photo
    colour: tuple[int, int, int]  # the circle's
    width: int  # the circle's line, px on a 1600 px wide photo
    texts: list[str]  # the label, then its short form
    ink: tuple[int, int, int]  # the label's

    def box(self, scale: float) -> tuple[float, float, float, float]:
        r = self.radius * scale
        return self.center[0] - r, self.center[1] - r, self.center[0] + r, self.center[1] + r


def annotate_reading(image: np.ndarray, reading: dict[str, Any]) -> np.ndarray:
    """The photo with every die outlined and named: green read, amber unreadable (what the kiosk shows).
    An unreadable die is labelled "?N" (the page lists it under that label) with its reason where that fits."""
    out = image.copy()
    scale = max(1.0, image.shape[1] / 1600)
    marks = _marks(reading)
    for mark in marks:
        cv2.circle(
            out,
            (int(mark.center[0]), int(mark.center[1])),
            int(mark.radius * scale),
            mark.colour,
            max(mark.width, int(mark.width * scale)),
            cv2.LINE_AA,
        )
    for text, origin, ink in _label_places(marks, scale, out.shape):
        cv2.putText(
            out, text, origin, cv2.FONT_HERSHEY_SIMPLEX, 0.5 * scale, ink, max(1, int(1.5 * scale)), cv2.LINE_AA
        )
    return out


def _marks(reading: dict[str, Any]) -> list[_Mark]:
    """What the annotated photo draws: a green circle and name per die read, an amber circle and "?N reason"
    (or just "?N") per unreadable die."""
    marks = [_Mark(die["center"], 28, (60, 200, 60), 2, [die["face"]], (60, 230, 60)) for die in reading["dice"]]
    return marks + [
        _Mark(die["center"], 30, (0, 170, 255), 3, [f"?{k + 1} {die['why']}", f"?{k + 1}"], (0, 190, 255))
        for k, die in enumerate(reading["unreadable"])
    ]


def _label_places(
    marks: list[_Mark], scale: float, shape: tuple[int, ...]
) -> list[tuple[str, tuple[int, int], tuple[int, int, int]]]:
    """Where each mark's label goes: above or below its circle, or beside it, where it covers no label placed
    before it and no other circle; else its short form (an unreadable die's "?N") where that fits; else
    nowhere (the page lists every die). Touching dice otherwise get labels written over each other."""
    font, weight = cv2.FONT_HERSHEY_SIMPLEX, max(1, int(1.5 * scale))
    circles = [mark.box(scale) for mark in marks]
    taken: list[tuple[float, float, float, float]] = []
    placed = []
    for k, mark in enumerate(marks):
        (x, y), r = mark.center, mark.radius * scale
        others = circles[:k] + circles[k + 1 :]
        for text in mark.texts:
            (w, h), base = cv2.getTextSize(text, font, 0.5 * scale, weight)
            spots = [
                (x - w / 2, y - r - 4 * scale),
                (x - w / 2, y + r + h + 4 * scale),
                (x + r + 4 * scale, y + h / 2),
                (x - r - 4 * scale - w, y + h / 2),
            ]
            free = [
                (left, bottom)
                for left, bottom in spots
                if 0 <= left
                and left + w < shape[1]
                and 0 <= bottom - h
                and bottom + base < shape[0]
                and not any(_overlap((left, bottom - h, left + w, bottom + base), box) for box in taken + others)
            ]
            if free:
                left, bottom = free[0]
                taken.append((left, bottom - h, left + w, bottom + base))
                placed.append((text, (int(left), int(bottom)), mark.ink))
                break
    return placed


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
