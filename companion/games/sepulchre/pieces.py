"""Skeleton pieces as counts: what one skeleton needs, complete skeletons, the one in progress."""

from __future__ import annotations

from collections.abc import Mapping

from ...errors import BadInput

PIECES = ("skull", "ribs", "pelvis", "arm", "leg")
NEED = {"skull": 1, "ribs": 1, "pelvis": 1, "arm": 2, "leg": 2}  # one skeleton: 7 pieces
WIN_SKELETONS = 3

Counts = dict[str, int]


def counts(data: Mapping[str, int] | None = None, where: str = "grave") -> Counts:
    """A full count of every piece type (missing types are 0); refuses unknown types and negatives."""
    data = dict(data or {})
    for piece, n in data.items():
        if piece not in NEED:
            raise BadInput(f"{where}: unknown piece {piece!r} (pieces: {', '.join(PIECES)})")
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise BadInput(f"{where}: {piece} count must be a whole number >= 0, not {n!r}")
    return {piece: int(data.get(piece, 0)) for piece in PIECES}


def box(skeletons: int) -> Counts:
    return {piece: NEED[piece] * skeletons for piece in PIECES}


def complete(grave: Counts) -> int:
    return min(grave[piece] // NEED[piece] for piece in PIECES)


def in_progress(grave: Counts) -> Counts:
    done = complete(grave)
    return {piece: grave[piece] - done * NEED[piece] for piece in PIECES}


def add(a: Counts, b: Counts, sign: int = 1) -> Counts:
    return {piece: a[piece] + sign * b[piece] for piece in PIECES}


def describe(grave: Counts) -> str:
    parts = [f"{n} {piece}" for piece, n in grave.items() if n]
    return ", ".join(parts) or "nothing"
