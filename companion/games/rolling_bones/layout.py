"""A skeleton on the table (slots and hat), its legality and its score."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ...errors import BadInput
from .dice import BONES, FACES, GRAVESTONE, HAT, MIRROR, SECTIONS, SLOTS, is_connected

POINTS_COMPLETE_SECTION = 5
POINTS_CORRECT_BONE = 1
POINTS_WRONG_BONE = -5


@dataclass(frozen=True)
class Score:
    total: int
    sections: dict[str, int]
    correct: int
    wrong: int
    hat: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "score": self.total,
            "sections": dict(self.sections),
            "correct": self.correct,
            "wrong": self.wrong,
            "hat": self.hat,
        }


@dataclass(frozen=True)
class Layout:
    """Which face lies in which slot, and whether the hat sits on the skull.

    Values only: the constructor does not check the rules, ``validate`` does.
    """

    slots: Mapping[str, str] = field(default_factory=dict)
    hat: bool = False

    def __post_init__(self) -> None:
        # Frozen in spirit: keep a private sorted copy so layouts compare and hash by value.
        object.__setattr__(
            self, "slots", dict(sorted(self.slots.items(), key=lambda kv: SLOTS.index(kv[0]) if kv[0] in SLOTS else 99))
        )

    def __hash__(self) -> int:
        return hash((tuple(self.slots.items()), self.hat))

    def __repr__(self) -> str:
        inside = ", ".join(f"{s}={f}" if s != f else s for s, f in self.slots.items())
        return f"Layout({inside}{', hat' if self.hat else ''})"

    @property
    def filled(self) -> frozenset[str]:
        return frozenset(self.slots)

    def has_real_skull(self) -> bool:
        return self.slots.get("skull") == "skull"

    def with_bone(self, slot: str, face: str) -> Layout:
        return Layout({**self.slots, slot: face}, self.hat)

    def with_hat(self, hat: bool) -> Layout:
        return Layout(self.slots, hat)

    def mirrored(self) -> Layout:
        return Layout({MIRROR[s]: MIRROR[f] for s, f in self.slots.items()}, self.hat)

    def validate(self) -> Layout:
        """Raise BadInput naming the first thing the rules do not allow."""
        for slot, face in self.slots.items():
            if slot not in SLOTS:
                raise BadInput(f"unknown slot {slot!r}")
            if face == GRAVESTONE:
                raise BadInput(f"a gravestone is never part of the skeleton (slot {slot!r})")
            if face == HAT:
                raise BadInput(f"the hat goes only on the skull, not in slot {slot!r}")
            if face not in FACES:
                raise BadInput(f"unknown face id {face!r} in slot {slot!r}")
        if not is_connected(self.filled):
            raise BadInput("the skeleton has a gap: filled slots must form one connected chain")
        if self.hat and not self.has_real_skull():
            raise BadInput("a hat needs a real skull in the skull slot")
        return self

    def score(self) -> Score:
        sections: dict[str, int] = {}
        correct = wrong = 0
        for name, chain in SECTIONS.items():
            right_here = sum(1 for s in chain if self.slots.get(s) == s)
            wrong_here = sum(1 for s in chain if s in self.slots and self.slots[s] != s)
            complete = all(s in self.slots for s in chain)
            base = POINTS_COMPLETE_SECTION if complete else right_here * POINTS_CORRECT_BONE
            sections[name] = base + wrong_here * POINTS_WRONG_BONE
            correct += right_here
            wrong += wrong_here
        total = sum(sections.values()) * (2 if self.hat else 1)
        return Score(total, sections, correct, wrong, self.hat)

    @classmethod
    def from_json(cls, data: Any, where: str = "layout") -> Layout:
        if not isinstance(data, dict):
            raise BadInput(f'{where} must be a JSON object with "slots" and "hat"')
        slots = data.get("slots", {})
        hat = data.get("hat", False)
        if not isinstance(slots, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in slots.items()):
            raise BadInput(f"{where}.slots must map slot names to face ids")
        if not isinstance(hat, bool):
            raise BadInput(f"{where}.hat must be true or false")
        unknown = set(data) - {"slots", "hat"}
        if unknown:
            raise BadInput(f"{where} has unknown field {sorted(unknown)[0]!r}")
        return cls(slots, hat).validate()

    def to_json(self) -> dict[str, Any]:
        return {"slots": dict(self.slots), "hat": self.hat}


def parse_faces(data: Any, where: str = "faces") -> list[str]:
    if not isinstance(data, list):
        raise BadInput(f"{where} must be a list of face ids")
    for face in data:
        if not isinstance(face, str) or face not in FACES:
            raise BadInput(f"unknown face id {face!r} in {where}")
    return list(data)


assert set(BONES) == set(SLOTS)
