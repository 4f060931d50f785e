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
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from itertools import product
from math import comb

from .dice import CENTER, GRAVESTONE, HAT, KINDS
from .skeleton_masks import BIT, KIND_MASK, KIND_SLOTS, SKULL, popcount


@cache
def _all_in(a: int, free: int, n: int) -> float:
    """P(n dice all land in a chosen faces + ``free`` other faces, each chosen face at least once)."""
    return sum((-1) ** j * comb(a, j) * ((a - j + free) / 6) ** n for j in range(a + 1))


@cache
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


def hat_can_go_on(hat_on: bool, wrong: int) -> bool:
    """Whether a rolled hat could still go on: none on yet, and no wrong bone in the skull slot."""
    return not hat_on and not wrong & SKULL


def _tracked(kind: str, filled: int, hat_wanted: bool) -> tuple[list[str], int]:
    """The faces of ``kind`` told apart in this state, and how many full-slot bones are grouped."""
    empty = [s for s in KIND_SLOTS[kind] if not filled & BIT[s]]
    group = len(KIND_SLOTS[kind]) - len(empty)
    if kind == CENTER:
        empty = empty + ([HAT] if hat_wanted else []) + [GRAVESTONE]
    return empty, group


def faces_shown(faces: Iterable[str]) -> tuple[int, bool, bool]:
    """Faces as (bone faces shown as a slot mask, a hat shows, a gravestone shows)."""
    bones, hat, grave = 0, False, False
    for face in faces:
        if face == HAT:
            hat = True
        elif face == GRAVESTONE:
            grave = True
        else:
            bones |= BIT[face]
    return bones, hat, grave


def throw_on(shown: tuple[int, bool, bool], filled: int, hat_wanted: bool) -> Throw:
    """What a throw showing ``shown`` means to this skeleton: fitting faces, others by kind, hat, gravestone."""
    bones, hat, grave = shown
    other = tuple(bool(bones & filled & KIND_MASK[kind]) for kind in KINDS)
    return Throw(bones & ~filled, other, hat and hat_wanted, grave)  # type: ignore[arg-type]


def throw_outcomes(
    filled: int, wrong: int, hat_on: bool, counts: tuple[int, int, int], max_outcomes: int, samples: int
) -> tuple[list[tuple[Throw, float]], bool]:
    """The distribution of a throw of ``counts`` dice onto this skeleton, and whether it is exact."""
    wanted = hat_can_go_on(hat_on, wrong)
    tracked = [_tracked(kind, filled, wanted) for kind in KINDS]
    names = [t[0] for t in tracked]
    per_kind = [kind_outcomes(n, len(t[0]), t[1]) for t, n in zip(tracked, counts)]
    size = 1
    for outs in per_kind:
        size *= len(outs)
    if size <= max_outcomes:
        joint = []
        for combo in product(*per_kind):
            p = combo[0][2] * combo[1][2] * combo[2][2]
            bones, hat, grave = faces_shown(
                name
                for names_of_kind, (shown, _, _) in zip(names, combo)
                for j, name in enumerate(names_of_kind)
                if shown >> j & 1
            )
            joint.append((Throw(bones, (combo[0][1], combo[1][1], combo[2][1]), hat, grave), p))
        return joint, True
    tally: Counter[Throw] = Counter()
    for shown in sampled_throws(counts, samples):
        tally[throw_on(shown, filled, wanted)] += 1
    return [(t, n / samples) for t, n in tally.items()], False


@cache
def sampled_throws(counts: tuple[int, int, int], samples: int) -> tuple[tuple[int, bool, bool], ...]:
    """Simulated throws as (bone faces shown as a slot mask, hat, gravestone), the same for every
    skeleton with these dice in hand, so options are compared on common random numbers."""
    rng = random.Random(1000 + 49 * counts[0] + 7 * counts[1] + counts[2])
    faces = {kind: KIND_SLOTS[kind] + ([HAT, GRAVESTONE] if kind == CENTER else []) for kind in KINDS}
    return tuple(
        faces_shown(face for kind, n in zip(KINDS, counts) for face in rng.choices(faces[kind], k=n))
        for _ in range(samples)
    )


def throw_from_faces(faces: list[str], filled: int, hat_wanted: bool) -> Throw:
    return throw_on(faces_shown(faces), filled, hat_wanted)
