"""What a throw can show, as the advisor needs it: per kind, which useful faces appear.

For each kind only *which* useful faces show matters (the faces whose slot is
still empty, the hat while it can still go on, the gravestone) plus whether any
other bone of that kind shows (a forced wrong bone needs one). Kinds are
independent, so a throw is the product of three small per-kind distributions,
each exact by inclusion-exclusion; a throw with too many joint outcomes is
sampled instead, the same samples for every state with the same dice in hand.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from math import comb

from .dice import CENTER, GRAVESTONE, HAT, KINDS, kind_of
from .skeleton_masks import BIT, KIND_INDEX, KIND_MASK, KIND_SLOTS, SKULL, popcount

@lru_cache(maxsize=None)
def _all_in(a: int, free: int, n: int) -> float:
    """P(n dice all land in a chosen faces + ``free`` other faces, each chosen face at least once)."""
    return sum((-1) ** j * comb(a, j) * ((a - j + free) / 6) ** n for j in range(a + 1))


@lru_cache(maxsize=None)
def kind_outcomes(n: int, tracked: int, group: int) -> tuple[tuple[int, bool, float], ...]:
    """Outcomes of n dice of one kind: (which of the ``tracked`` faces show as a bitmask over
    them, whether any of the ``group`` faces shows, probability). The other 6 - tracked - group
    faces are not told apart."""
    rest = 6 - tracked - group
    out = []
    for shown in range(1 << tracked):
        a = popcount(shown)
        if a > n:
            continue
        only = _all_in(a, rest, n)
        if only > 1e-15:
            out.append((shown, False, only))
        if group and a < n:
            some = _all_in(a, rest + group, n) - only
            if some > 1e-15:
                out.append((shown, True, some))
    return tuple(out)


@dataclass(frozen=True)
class Throw:
    """One kind-level outcome of a throw: useful bone faces showing, other bones by kind, hat, gravestone."""

    bones: int  # slot mask of empty-slot faces showing
    other: tuple[bool, bool, bool]  # a bone of this kind whose slot is full shows (left, right, center)
    hat: bool
    grave: bool

    def has_bone(self, kind: int) -> bool:
        return self.other[kind] or bool(self.bones & KIND_MASK[KINDS[kind]])


def _tracked(kind: str, filled: int, hat_wanted: bool) -> tuple[list[str], int]:
    """The faces of ``kind`` told apart in this state, and how many full-slot bones are grouped."""
    empty = [s for s in KIND_SLOTS[kind] if not filled & BIT[s]]
    group = len(KIND_SLOTS[kind]) - len(empty)
    if kind == CENTER:
        empty = empty + ([HAT] if hat_wanted else []) + [GRAVESTONE]
    return empty, group


def _throw_of(names_by_kind: list[list[str]], shown_by_kind: list[int], other: tuple[bool, bool, bool]) -> Throw:
    bones, hat, grave = 0, False, False
    for names, shown in zip(names_by_kind, shown_by_kind):
        for j, name in enumerate(names):
            if shown >> j & 1:
                if name == HAT:
                    hat = True
                elif name == GRAVESTONE:
                    grave = True
                else:
                    bones |= BIT[name]
    return Throw(bones, other, hat, grave)


def throw_outcomes(filled: int, wrong: int, hat_on: bool, counts: tuple[int, int, int],
                   max_outcomes: int, samples: int) -> tuple[list[tuple[Throw, float]], bool]:
    """The distribution of a throw of ``counts`` dice onto this skeleton, and whether it is exact."""
    hat_wanted = not hat_on and not wrong & SKULL
    tracked = [_tracked(kind, filled, hat_wanted) for kind in KINDS]
    names = [t[0] for t in tracked]
    per_kind = [kind_outcomes(n, len(t[0]), t[1]) for t, n in zip(tracked, counts)]
    size = 1
    for outs in per_kind:
        size *= len(outs)
    if size <= max_outcomes:
        joint = []
        for combo in product(*per_kind):
            p = combo[0][2] * combo[1][2] * combo[2][2]
            joint.append((_throw_of(names, [c[0] for c in combo], (combo[0][1], combo[1][1], combo[2][1])), p))
        return joint, True
    tally: Counter[Throw] = Counter()
    for shown, hat, grave in sampled_throws(counts, samples):
        other = tuple(bool(shown & filled & KIND_MASK[kind]) for kind in KINDS)
        tally[Throw(shown & ~filled, other, hat and hat_wanted, grave)] += 1  # type: ignore[arg-type]
    return [(t, n / samples) for t, n in tally.items()], False


@lru_cache(maxsize=None)
def sampled_throws(counts: tuple[int, int, int], samples: int) -> tuple[tuple[int, bool, bool], ...]:
    """Simulated throws as (bone faces shown as a slot mask, hat, gravestone), the same for every
    skeleton with these dice in hand, so options are compared on common random numbers."""
    rng = random.Random(1000 + 49 * counts[0] + 7 * counts[1] + counts[2])
    faces = {kind: KIND_SLOTS[kind] + ([HAT, GRAVESTONE] if kind == CENTER else []) for kind in KINDS}
    out = []
    for _ in range(samples):
        shown, hat, grave = 0, False, False
        for kind, n in zip(KINDS, counts):
            for face in rng.choices(faces[kind], k=n):
                if face == HAT:
                    hat = True
                elif face == GRAVESTONE:
                    grave = True
                else:
                    shown |= BIT[face]
        out.append((shown, hat, grave))
    return tuple(out)


def throw_from_faces(faces: list[str], filled: int, hat_wanted: bool) -> Throw:
    bones, other = 0, [False, False, False]
    for face in faces:
        if face in (HAT, GRAVESTONE):
            continue
        if filled & BIT[face]:
            other[KIND_INDEX[kind_of(face)]] = True
        else:
            bones |= BIT[face]
    return Throw(bones, (other[0], other[1], other[2]), HAT in faces and hat_wanted, GRAVESTONE in faces)
