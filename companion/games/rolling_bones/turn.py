"""One player's turn as a state machine: pre-op roll, lays, paid post-op rolls, bury or lose.

``legal_lays`` is the core the rest calls (as a legal-move generator is in chess):
a lay the rules refuse is never applied.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field, replace

from ...errors import IllegalPlay
from .dice import BONES, DICE_PER_KIND, FACE_IDS, GRAVESTONE, HAT, KINDS, kind_of, open_slots
from .layout import Layout

THROW, LAY, OVER = "throw", "lay", "over"
FACES_OF = {kind: [f for f in FACE_IDS if kind_of(f) == kind] for kind in KINDS}
BURIED, LOST = "buried", "lost"


def kind_counts(faces: list[str] | tuple[str, ...]) -> dict[str, int]:
    counts = Counter(kind_of(f) for f in faces)
    return {kind: counts.get(kind, 0) for kind in KINDS}


@dataclass(frozen=True)
class Lay:
    """Put ``face`` from the roll into ``slot`` (the hat on "skull"; the gravestone buries)."""

    face: str
    slot: str | None

    @property
    def wrong(self) -> bool:
        return self.face in BONES and self.slot != self.face


@dataclass(frozen=True)
class Turn:
    layout: Layout = field(default_factory=Layout)
    phase: str = THROW
    to_throw: tuple[tuple[str, int], ...] = tuple((k, DICE_PER_KIND) for k in KINDS)
    loose: tuple[str, ...] = ()  # dice of the latest roll not laid (plus a hat taken back)
    post_ops: int = 0  # post-op rolls made so far
    laid_this_roll: tuple[str, ...] = ()
    outcome: str | None = None
    points: int = 0
    why: str = ""

    # -- what the rules allow now -------------------------------------------------------------

    @property
    def next_cost(self) -> int:
        """Dice the next post-op roll costs: 1, 2, 3 ..."""
        return self.post_ops + 1

    def can_bury(self) -> bool:
        return self.phase == LAY and GRAVESTONE in self.loose

    def can_pay(self) -> bool:
        return self.phase == LAY and len(self.loose) - self.next_cost >= 1 and self.lay_done()

    def lay_done(self) -> bool:
        """After a post-op roll at least one die must be laid before anything else."""
        return self.post_ops == 0 or bool(self.laid_this_roll)

    def legal_lays(self) -> list[Lay]:
        if self.phase != LAY:
            return []
        lays: list[Lay] = []
        reachable = open_slots(self.layout.filled)
        loose = set(self.loose)
        for face in BONES:
            if face in loose and face in reachable:
                lays.append(Lay(face, face))
        if HAT in loose and self.layout.has_real_skull() and not self.layout.hat:
            lays.append(Lay(HAT, "skull"))
        if GRAVESTONE in loose:
            lays.append(Lay(GRAVESTONE, None))
        if not lays and not self.lay_done():
            # Forced: exactly one bone of this roll goes in a wrong slot next to the chain.
            lays = [Lay(face, slot) for face in BONES if face in loose for slot in sorted(reachable)]
        return lays

    def random_throw(self, rng: random.Random) -> list[str]:
        """The faces the dice to throw show when thrown: one face of its kind for each, drawn from ``rng``."""
        return [rng.choice(FACES_OF[kind]) for kind, n in self.to_throw for _ in range(n)]

    # -- actions --------------------------------------------------------------------------

    def throw(self, faces: list[str]) -> Turn:
        if self.phase != THROW:
            raise IllegalPlay("the dice on the table must be laid, paid or buried before another throw")
        expected = dict(self.to_throw)
        got = kind_counts(faces)
        if got != expected:
            want = ", ".join(f"{n} {k}" for k, n in expected.items())
            have = ", ".join(f"{n} {k}" for k, n in got.items())
            raise IllegalPlay(f"this throw must have {want} dice; the photo shows {have}")
        return self._settle(replace(self, phase=LAY, loose=tuple(faces), laid_this_roll=()))

    def lay(self, face: str, slot: str | None = None) -> Turn:
        if face == GRAVESTONE:
            return self.bury()
        slot = "skull" if face == HAT else (slot or face)
        move = Lay(face, slot)
        if move not in self.legal_lays():
            raise IllegalPlay(self._why_not(move))
        loose = list(self.loose)
        loose.remove(face)
        layout = self.layout.with_hat(True) if face == HAT else self.layout.with_bone(slot, face)
        return self._settle(
            replace(self, layout=layout, loose=tuple(loose), laid_this_roll=self.laid_this_roll + (face,))
        )

    def take_hat(self) -> Turn:
        """The hat is not a bone: it may come back to be rolled again at any time."""
        if self.phase != LAY or not self.layout.hat:
            raise IllegalPlay("there is no hat on the skeleton to take back")
        laid = list(self.laid_this_roll)
        if HAT in laid:
            laid.remove(HAT)
        return replace(self, layout=self.layout.with_hat(False), loose=self.loose + (HAT,), laid_this_roll=tuple(laid))

    def pay(self, dice: list[str]) -> Turn:
        """Set aside ``dice`` (faces from the loose dice) to pay for the next post-op roll."""
        if self.phase != LAY:
            raise IllegalPlay("there is no roll on the table to pay from")
        if not self.lay_done():
            raise IllegalPlay("after a post-op roll at least one die must be laid first")
        if len(dice) != self.next_cost:
            raise IllegalPlay(f"post-op roll {self.next_cost} costs {self.next_cost} dice, not {len(dice)}")
        left = Counter(self.loose)
        left.subtract(Counter(dice))
        if any(n < 0 for n in left.values()):
            raise IllegalPlay("pay only with dice that are on the table and not laid")
        remaining = list(left.elements())
        if not remaining:
            raise IllegalPlay("a post-op roll needs at least one die left to throw after paying")
        counts = kind_counts(remaining)
        return replace(
            self, phase=THROW, to_throw=tuple(counts.items()), loose=(), post_ops=self.next_cost, laid_this_roll=()
        )

    def bury(self) -> Turn:
        if not self.can_bury():
            raise IllegalPlay("bury only when the latest roll shows a gravestone")
        score = self.layout.score().total
        return replace(self, phase=OVER, outcome=BURIED, points=score, why=f"buried for {score} points")

    # -- helpers --------------------------------------------------------------------------

    def _settle(self, turn: Turn) -> Turn:
        """End the turn at once when the rules leave no way on (the skeleton is lost)."""
        if turn.phase != LAY or GRAVESTONE in turn.loose:
            return turn
        if not turn.lay_done() and not turn.legal_lays():
            return replace(
                turn, phase=OVER, outcome=LOST, points=0, why="nothing in the roll can be laid, not even wrong"
            )
        # A hat on the skull can still come back to be thrown, so it counts as a die in hand.
        in_hand = len(turn.loose) + (1 if turn.layout.hat else 0)
        if turn.lay_done() and in_hand - turn.next_cost < 1:
            return replace(
                turn,
                phase=OVER,
                outcome=LOST,
                points=0,
                why=f"no gravestone and too few dice to pay for post-op roll {turn.next_cost}",
            )
        return turn

    def _why_not(self, move: Lay) -> str:
        if self.phase != LAY:
            return "there is no roll on the table to lay from"
        if move.face not in self.loose:
            return f"no {move.face} in the roll to lay"
        if move.face == HAT:
            return "the hat goes only on a real skull, and only one hat"
        if move.slot in self.layout.slots:
            return f"the {move.slot} slot is already filled"
        if move.slot not in open_slots(self.layout.filled):
            return f"{move.slot} is not next to the chain: no gaps"
        if move.wrong:
            return "a bone goes in a wrong slot only when nothing else can be laid after a post-op roll"
        return f"{move.face} cannot be laid in {move.slot} now"
