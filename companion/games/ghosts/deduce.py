"""The deduction helper: exact chances for an opponent's secrets from what was said (rules/ghosts-in-the-graveyard.md).

Every set of three original secrets consistent with the crossings, the asker's hand and
every answer is equally likely; the haunt is equally likely any secret still held. There
are only C(50, 3) = 19,600 sets, so each is checked, as a 50-bit mask, with numpy.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from itertools import combinations
from typing import Any

import numpy as np

from ...errors import BadInput
from .board import TOMBSTONES, tombstone

SECRETS = 3
GUESS_ANSWERS = ("no", "decoy")


@dataclass(frozen=True)
class Asked:
    area: frozenset[int]
    answer: bool


@dataclass(frozen=True)
class Guessed:
    tombstone: int
    answer: str  # "no" or "decoy"


@dataclass(frozen=True)
class Revealed:
    tombstone: int


Event = Asked | Guessed | Revealed


@dataclass(frozen=True)
class Knowledge:
    """What one player knows of the opponent on their left, in the order it happened."""

    crossed: frozenset[int] = frozenset()  # crossed other than this opponent's revealed secrets
    hand: frozenset[int] = frozenset()
    events: tuple[Event, ...] = ()

    @classmethod
    def from_json(cls, data: object) -> Knowledge:
        if not isinstance(data, dict):
            raise BadInput('a deduction state is a JSON object with "crossed", "hand" and "events"')
        unknown = sorted(set(data) - {"crossed", "hand", "events"})
        if unknown:
            raise BadInput(f"unknown key {unknown[0]!r} (a state has crossed, hand and events)")
        events = data.get("events", [])
        if not isinstance(events, list):
            raise BadInput('"events" is a list')
        return cls(
            _numbers(data.get("crossed", []), "crossed"),
            _numbers(data.get("hand", []), "hand"),
            tuple(_event(e, i) for i, e in enumerate(events, 1)),
        )

    def to_json(self) -> dict[str, Any]:
        def event(e: Event) -> dict[str, Any]:
            if isinstance(e, Asked):
                return {"asked": sorted(e.area), "answer": e.answer}
            if isinstance(e, Guessed):
                return {"guess": e.tombstone, "answer": e.answer}
            return {"revealed": e.tombstone}

        return {"crossed": sorted(self.crossed), "hand": sorted(self.hand), "events": [event(e) for e in self.events]}


@dataclass(frozen=True, eq=False)
class Deduction:
    consistent: int
    held: int
    secret: dict[int, float]  # tombstone -> chance it is a held secret (non-zero only)
    haunt: dict[int, float]
    fits: np.ndarray  # which of all_sets() fit (for questions asked of this knowledge)
    revealed: int  # bit mask of the secrets revealed so far

    @cached_property
    def fitting(self) -> np.ndarray:
        return all_sets()[self.fits]

    @property
    def best_guess(self) -> int:
        return min(self.haunt, key=lambda t: (-self.haunt[t], t))

    def to_json(self) -> dict[str, Any]:
        best = self.best_guess
        return {
            "consistent": self.consistent,
            "held": self.held,
            "secret": {str(t): round(p, 6) for t, p in self.secret.items()},
            "haunt": {str(t): round(p, 6) for t, p in self.haunt.items()},
            "best_guess": {"tombstone": best, "haunt": round(self.haunt[best], 6)},
        }

    def chance_of_yes(self, area: Iterable[int]) -> float:
        """The chance that a light over `area` is answered yes (a held secret under it)."""
        asked = _mask(area) & ~self.revealed
        return float(((self.fitting & np.uint64(asked)) != 0).mean())

    def information(self, area: Iterable[int]) -> float:
        """Expected bits a yes/no question about `area` tells (its answer's entropy)."""
        p = self.chance_of_yes(area)
        return 0.0 if p in (0.0, 1.0) else -(p * math.log2(p) + (1 - p) * math.log2(1 - p))


def deduce(knowledge: Knowledge) -> Deduction:
    """Count every set of original secrets that fits; say the chances. BadInput if none fits."""
    sets = all_sets()
    ruled_out = _mask(knowledge.crossed | knowledge.hand)
    fits = (sets & np.uint64(ruled_out)) == 0
    revealed = 0
    for number, event in enumerate(knowledge.events, 1):
        if isinstance(event, Asked):
            hit = (sets & np.uint64(_mask(event.area) & ~revealed)) != 0
            fits &= hit if event.answer else ~hit
            continue
        bit = 1 << (event.tombstone - 1)
        if isinstance(event, Guessed) and event.answer == "no":
            if not revealed & bit:  # "not one of my secrets": true of a revealed one already
                fits &= (sets & np.uint64(bit)) == 0
            continue
        why = _cannot_be_secret(knowledge, event.tombstone, revealed)
        if why:
            raise BadInput(f"event {number}: {event.tombstone} is revealed as a secret but {why}")
        fits &= (sets & np.uint64(bit)) != 0
        revealed |= bit
    held = SECRETS - bin(revealed).count("1")
    if held < 1:
        raise BadInput(f"{SECRETS - held} secrets revealed: the haunt is never revealed, at most {SECRETS - 1} are")
    consistent = int(fits.sum())
    if consistent == 0:
        raise BadInput("no set of secrets fits every answer: the answers contradict each other")
    counts = _member_counts(sets[fits])
    secret = {t: counts[t - 1] / consistent for t in TOMBSTONES if counts[t - 1] and not revealed & (1 << (t - 1))}
    haunt = {t: p / held for t, p in secret.items()}
    return Deduction(consistent, held, secret, haunt, fits, revealed)


@cache
def all_sets() -> np.ndarray:
    """Every 3-tombstone set as a 50-bit mask (bit t-1 for tombstone t)."""
    return np.array([(1 << a) | (1 << b) | (1 << c) for a, b, c in combinations(range(50), SECRETS)], dtype=np.uint64)


def _member_counts(sets: np.ndarray) -> list[int]:
    return [int(((sets >> np.uint64(t)) & np.uint64(1)).sum()) for t in range(50)]


def _mask(numbers: Iterable[int]) -> int:
    mask = 0
    for n in numbers:
        mask |= 1 << (n - 1)
    return mask


def _cannot_be_secret(knowledge: Knowledge, number: int, revealed: int) -> str:
    if number in knowledge.hand:
        return "it is in the asker's hand"
    if number in knowledge.crossed:
        return "it was crossed for a played card"
    if revealed & (1 << (number - 1)):
        return "it was revealed already"
    return ""


def _numbers(data: object, what: str) -> frozenset[int]:
    if not isinstance(data, list):
        raise BadInput(f'"{what}" is a list of tombstones 1-50')
    return frozenset(tombstone(n) for n in data)


def _event(data: object, number: int) -> Event:
    if not isinstance(data, Mapping):
        raise BadInput(f'event {number}: an object such as {{"asked": [1, 2], "answer": true}}')
    keys = set(data)
    if keys == {"asked", "answer"}:
        if not isinstance(data["answer"], bool):
            raise BadInput(f"event {number}: a light's answer is true or false, not {data['answer']!r}")
        return Asked(_numbers(data["asked"], "asked"), data["answer"])
    if keys == {"guess", "answer"}:
        if data["answer"] not in GUESS_ANSWERS:
            raise BadInput(f'event {number}: a guess is answered "no" or "decoy", not {data["answer"]!r}')
        return Guessed(tombstone(data["guess"]), data["answer"])
    if keys == {"revealed"}:
        return Revealed(tombstone(data["revealed"]))
    stray = sorted(keys - {"asked", "guess", "answer", "revealed"})
    if stray:
        raise BadInput(f"event {number}: unknown key {stray[0]!r}")
    raise BadInput(f"event {number}: one of asked+answer, guess+answer or revealed, not {sorted(keys)}")
