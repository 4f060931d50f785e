"""The best play of a Rolling Bones turn: what to lay, bury or roll again, what to pay.

Method: expectimax over the turn, memoised on a compact state. A state is the
skeleton as two 16-bit masks (filled slots, wrong bones), the hat, the dice in
hand by kind (left, right, center) and the post-op count. A throw is not
enumerated die by die: for each kind only *which* useful faces show matters
(the faces whose slot is still empty, the hat while it can still go on, the
gravestone) plus whether any other bone of that kind shows (a forced wrong
bone needs one). Kinds are independent, so a throw is the product of three
small per-kind distributions, each exact by inclusion-exclusion.

Exact where that product is small. Where it is not (a big throw onto an
emptyish skeleton) two documented approximations step in, and the answer says
``exact: false``:

- a throw with more than ``MAX_OUTCOMES`` joint outcomes is estimated from
  ``SAMPLES`` simulated throws (the same throws for every state with the same
  dice in hand, so options are compared on common random numbers);
- when more than ``MAX_FULL_LAYS`` bones of a throw could be laid, the lays
  considered are whole kinds (all fitting left, right and center bones, or
  some of those kinds) instead of every subset; and in a throw of more than
  ``BIG_THROW`` dice, or one estimated by sampling, every fitting bone is laid
  and only the hat is a choice (a big hand has dice to spare).

``bench/advisor.py`` measures the error of these against the exact values on
states where both run. Terminal values go through a utility, so the same
search maximises expected points (``points_utility``) or the chance to win
the game (``win_utility``, from ``win.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations

from .memo import MemoTable, state_code
from .skeleton_masks import (
    KIND_MASK,
    KINDS,
    SKULL,
    bits,
    canonical,
    dice_used,
    grow,
    is_connected_mask,
    mask_score,
    open_mask,
    pieces_of,
)
from .throws import Throw, throw_outcomes

MAX_OUTCOMES = 200


SAMPLES = 150


MAX_FULL_LAYS = 4


BIG_THROW = 8  # dice; a throw of more is answered with every fitting bone laid (only the hat is a choice)


Utility = Callable[[int], float]


def points_utility(score: int) -> float:
    return float(score)


@dataclass(frozen=True)
class Lay:
    """What to put down from one throw: correct bones (a slot mask), the hat, or one forced wrong bone."""

    bones: int = 0
    hat: bool = False
    wrong_slot: int | None = None  # slot index of a forced wrong bone
    wrong_kind: int | None = None  # kind index of the die laid wrong
    wrong_face: int | None = None  # slot index of the face it shows, when that face's slot is empty


@lru_cache(maxsize=1 << 18)
def bone_choices(filled: int, shown: int, max_full: int) -> tuple[tuple[tuple[int, tuple[int, int, int]], ...], bool]:
    """Sets of shown bones that may be laid together (each with the dice it uses by kind), and
    whether that is every legal set. Past ``MAX_FULL_LAYS`` layable bones only whole kinds are
    laid or kept (the documented approximation)."""
    pieces = [grow(filled, shown)] if filled else pieces_of(shown)
    choices = {0}
    complete = True
    for piece in pieces:
        if not piece:
            continue
        members = bits(piece)
        if len(members) <= max_full:
            for size in range(1, len(members) + 1):
                for chosen in combinations(members, size):
                    m = sum(1 << i for i in chosen)
                    if is_connected_mask(filled | m):
                        choices.add(m)
        elif max_full == 0:
            complete = False
            choices.add(piece)
        else:
            complete = False
            for kinds in range(1, 8):
                keep = sum(KIND_MASK[KINDS[k]] for k in range(3) if kinds >> k & 1)
                part = piece & keep
                choices.update(pieces_of(part) if not filled else [grow(filled, part)])
    if max_full == 0 and len(choices) > 1:
        choices.discard(0)  # greedy: something fits, so it is laid
    return tuple((m, dice_used(m)) for m in sorted(choices)), complete


def keeping_a_centre_die(filled: int, choices: tuple, centre_dice: int) -> tuple:
    """Only a centre die can show a gravestone. A pruned set of lays (the approximations) may
    hold only lays that use every centre die in hand, leaving burying impossible: add each such
    lay with fewer centre bones (still connected), so a play that can still bury is weighed."""
    out = dict(choices)
    for bones, used in choices:
        if used[2] < centre_dice:
            continue
        centre = bones & KIND_MASK[KINDS[2]]
        for sub in _submasks(centre):
            if sub.bit_count() >= centre_dice:
                continue
            part = bones & ~centre | sub
            for piece in [grow(filled, part)] if filled else pieces_of(part):
                out.setdefault(piece, dice_used(piece))
    return tuple(sorted(out.items()))


def _submasks(mask: int):
    sub = mask
    while True:
        yield sub
        if not sub:
            return
        sub = (sub - 1) & mask


@dataclass(frozen=True)
class Option:
    """One way to play the throw on the table, with its value (expected points or win chance)."""

    lay: Lay
    bury: bool
    value: float
    take_hat: bool = False
    pay: tuple[int, int, int] | None = None  # dice paid by kind for the next post-op roll; None when the turn ends


class SearchTooLong(Exception):
    """A search ran past its budget of throws to weigh (``Advisor.throws_left``)."""


@dataclass
class Advisor:
    """Memoised expectimax for one utility; keep one per utility and reuse it across turns."""

    utility: Utility = points_utility
    max_outcomes: int = MAX_OUTCOMES
    samples: int = SAMPLES
    max_full_lays: int = MAX_FULL_LAYS
    big_throw: int = BIG_THROW
    table: MemoTable | None = None  # a remembered search (memo.py), looked up before searching
    throws_left: int | None = None  # a budget: throws still to weigh (memo hits too) before SearchTooLong
    _pre: dict = field(default_factory=dict)
    _post: dict = field(default_factory=dict)

    max_states: int = 800_000  # about 400 MB of memo (measured); past it the memo starts afresh

    def forget_if_full(self) -> None:
        if len(self._pre) + len(self._post) > self.max_states:
            self._pre.clear()
            self._post.clear()

    @property
    def lost(self) -> float:
        return self.utility(0)

    # V before a throw of ``counts`` dice; ``post_ops`` counts post-op rolls including this one.
    def before_throw(
        self, filled: int, wrong: int, hat: bool, counts: tuple[int, int, int], post_ops: int
    ) -> tuple[float, bool]:
        if self.throws_left is not None:
            # A node is stored only once its whole subtree is done, so stopping leaves the memo right.
            self.throws_left -= 1
            if self.throws_left < 0:
                raise SearchTooLong
        key = (canonical(filled, wrong, counts), hat, post_ops)
        hit = self._pre.get(key)
        if hit is None and self.table is not None:
            hit = self.table.before_throw(state_code(*key))
        if hit is not None:
            return hit
        outcomes, exact = throw_outcomes(filled, wrong, hat, counts, self.max_outcomes, self.samples)
        # A throw too big to enumerate has dice to spare: lay every fitting bone, choose only the hat.
        max_full = self.max_full_lays if exact else 0
        last = post_ops > 0 and sum(counts) + hat < post_ops + 3
        total = 0.0
        for throw, p in outcomes:
            if last:
                total += p * self._last_throw(filled, wrong, hat, throw)
                continue
            value, ok = self._best(filled, wrong, hat, counts, post_ops, throw, max_full)
            total += p * value
            exact = exact and ok
        self._pre[key] = (total, exact)
        return total, exact

    def _last_throw(self, filled: int, wrong: int, hat: bool, throw: Throw) -> float:
        """A throw after which no post-op roll can be paid for: bury on a gravestone, else lost.

        With a gravestone the best burial lays every fitting bone (a correct bone never lowers
        the score) and the hat when it helps; not burying loses the skeleton, which is a choice
        only when something else could be laid."""
        if not throw.grave:
            return self.lost
        reach = (
            grow(filled, throw.bones)
            if filled
            else max(pieces_of(throw.bones) or [0], key=lambda m: mask_score(m, 0, False))
        )
        now = filled | reach
        best = self.utility(mask_score(now, wrong, hat))
        can_hat = throw.hat and not hat and now & SKULL and not wrong & SKULL
        if can_hat:
            best = max(best, self.utility(mask_score(now, wrong, True)))
        if reach or can_hat:
            best = max(best, self.lost)
        return best

    # V with ``counts`` dice in hand after laying; the next post-op roll costs ``cost``.
    # A hat laid from this throw stays (taking it back would be not laying it: ``hat_laid_now``).
    def after_lay(
        self, filled: int, wrong: int, hat: bool, counts: tuple[int, int, int], cost: int, hat_laid_now: bool = False
    ) -> tuple[float, bool, tuple[bool, tuple[int, int, int]] | None]:
        state = canonical(filled, wrong, counts)
        flip = state != (filled, wrong, counts)  # the memo holds the mirror: its left pays are our right
        key = (state, hat, cost, hat_laid_now)
        hit = self._post.get(key)
        if hit is None and self.table is not None:
            hit = self.table.after_lay(state_code(*key))
        if hit is not None:
            return _flipped(hit) if flip else hit
        best, exact, choice = self.lost, True, None
        for take_hat in (False, True) if hat and not hat_laid_now else (False,):
            hand = (counts[0], counts[1], counts[2] + (1 if take_hat else 0))
            if sum(hand) - cost < 1:
                continue
            for pay in _payments(hand, cost):
                value, ok = self.before_throw(
                    filled, wrong, hat and not take_hat, (hand[0] - pay[0], hand[1] - pay[1], hand[2] - pay[2]), cost
                )
                exact = exact and ok
                if choice is None or value > best:
                    best, choice = value, (take_hat, pay)
        result = (best, exact, choice)
        self._post[key] = _flipped(result) if flip else result
        return result

    def _best(
        self,
        filled: int,
        wrong: int,
        hat: bool,
        counts: tuple[int, int, int],
        post_ops: int,
        throw: Throw,
        max_full: int,
    ) -> tuple[float, bool]:
        best, exact, _ = self._plays(filled, wrong, hat, counts, post_ops, throw, max_full, None)
        return best, exact

    def options(
        self,
        filled: int,
        wrong: int,
        hat: bool,
        counts: tuple[int, int, int],
        post_ops: int,
        throw: Throw,
        lay_done: bool = False,
    ) -> tuple[list[Option], bool]:
        """Every play considered for ``throw``, best first, and whether every value is exact."""
        found: list[Option] = []
        # A big throw has dice to spare: as inside the search, every fitting bone is laid.
        max_full = self.max_full_lays if sum(counts) <= self.big_throw else 0
        _, exact, _ = self._plays(
            filled, wrong, hat, counts, post_ops, throw, max_full, found, forced=Lay() if lay_done else None
        )
        found.sort(key=lambda o: -o.value)
        return found, exact

    def _plays(
        self,
        filled: int,
        wrong: int,
        hat: bool,
        counts: tuple[int, int, int],
        post_ops: int,
        throw: Throw,
        max_full: int,
        found: list[Option] | None,
        forced: Lay | None = None,
    ) -> tuple[float, bool, bool]:
        """Value every play of ``throw``; list them in ``found`` when given. Returns the best
        value, whether it is exact, and whether any play was possible."""
        must_lay = post_ops > 0 and forced is None
        best, any_play = self.lost, False
        choices, exact = bone_choices(filled, throw.bones, max_full)
        if not exact and counts[2]:
            choices = keeping_a_centre_die(filled, choices, counts[2])
        can_hat = throw.hat and not hat and not wrong & SKULL
        l, r, c = counts  # noqa: E741 - the left, right and centre dice in hand
        for bones, (ul, ur, uc) in choices:
            now = filled | bones
            for lay_hat in (False, True) if can_hat and now & SKULL else (False,):
                hatted = hat or lay_hat
                if throw.grave:
                    v = self.utility(mask_score(now, wrong, hatted))
                    if found is not None:
                        found.append(Option(_joined(forced, Lay(bones, lay_hat)), True, v))
                    if not any_play or v > best:
                        best = v
                    any_play = True
                if must_lay and not bones and not lay_hat:
                    continue
                v, ok, choice = self.after_lay(
                    now, wrong, hatted, (l - ul, r - ur, c - uc - lay_hat), post_ops + 1, lay_hat
                )
                exact = exact and ok
                if found is not None:
                    take, pay = choice if choice else (False, None)
                    found.append(Option(_joined(forced, Lay(bones, lay_hat)), False, v, take, pay))
                if not any_play or v > best:
                    best = v
                any_play = True
        if must_lay and not any_play:
            # Forced: one bone of this throw goes wrong in a slot next to the chain; bones it
            # newly connects may follow. A die whose own slot is full is the one to give up;
            # else one showing an empty slot's face (which is then gone: a second die with the
            # same face is not tracked, so that case is not exact).
            for kind in range(3):
                if not counts[kind] or not throw.has_bone(kind):
                    continue
                sources: list[tuple[int | None, int]]
                if throw.other[kind]:
                    sources = [(None, throw.bones)]
                else:
                    sources = [(i, throw.bones & ~(1 << i)) for i in bits(throw.bones & KIND_MASK[KINDS[kind]])]
                hand = (l - (kind == 0), r - (kind == 1), c - (kind == 2))
                for face, rest in sources:
                    for slot in bits(open_mask(filled)):
                        if (
                            face is not None
                            and counts[kind] > 1
                            and grow(filled | 1 << slot, rest | 1 << face) >> face & 1
                        ):
                            exact = False  # a twin of the given-up face could have followed it
                        lay = Lay(wrong_slot=slot, wrong_kind=kind, wrong_face=face)
                        after = Throw(rest & ~(1 << slot), throw.other, throw.hat, throw.grave)
                        v, ok, _ = self._plays(
                            filled | 1 << slot,
                            wrong | 1 << slot,
                            hat,
                            hand,
                            post_ops,
                            after,
                            max_full,
                            found,
                            forced=lay,
                        )
                        exact = exact and ok
                        if not any_play or v > best:
                            best = v
                        any_play = True
        if found is not None and not any_play and forced is None:
            found.append(Option(Lay(), False, self.lost))
        return best, exact, any_play


def _joined(forced: Lay | None, lay: Lay) -> Lay:
    if forced is None:
        return lay
    return Lay(lay.bones, lay.hat, forced.wrong_slot, forced.wrong_kind, forced.wrong_face)


def _flipped(result: tuple) -> tuple:
    best, exact, choice = result
    if choice is None:
        return result
    take_hat, pay = choice
    return best, exact, (take_hat, (pay[1], pay[0], pay[2]))


def _payments(hand: tuple[int, int, int], cost: int) -> list[tuple[int, int, int]]:
    out = []
    for left in range(min(hand[0], cost) + 1):
        for right in range(min(hand[1], cost - left) + 1):
            center = cost - left - right
            if center <= hand[2]:
                out.append((left, right, center))
    return out
