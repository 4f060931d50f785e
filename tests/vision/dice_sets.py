"""Dice sets made for a test from an enrolled one."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from companion.vision.reader import DiceReader


def taught_alike(reader: DiceReader, face: str, like: str) -> DiceReader:
    """``reader``'s set as if ``face`` had been taught from ``like``'s photos: two faces one picture (a set whose two
    faces differ by a mark the camera cannot see), so that a die of either is too close to call."""
    labels = np.asarray(reader.labels)
    kept, taught = labels != face, np.flatnonzero(labels == like)

    def rows(vectors: np.ndarray) -> np.ndarray:
        return np.concatenate([vectors[kept], vectors[taught]])

    return replace(
        reader,
        vectors=rows(reader.vectors),
        labels=[*labels[kept].tolist(), *[face] * len(taught)],
        blurred=None if reader.blurred is None else rows(reader.blurred),
    )
