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

import random
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations, product
from math import comb
from typing import Callable

from .dice import CENTER, GRAVESTONE, HAT, KINDS, NEIGHBOURS, SECTIONS, SLOTS, kind_of
from .memo import MemoTable, state_code
from .layout import POINTS_COMPLETE_SECTION, POINTS_CORRECT_BONE, POINTS_WRONG_BONE, Layout

MAX_OUTCOMES = 200
SAMPLES = 150
MAX_FULL_LAYS = 4
BIG_THROW = 8  # dice; a throw of more is answered with every fitting bone laid (only the hat is a choice)

BIT = {slot: 1 << i for i, slot in enumerate(SLOTS)}
ALL = (1 << len(SLOTS)) - 1
SKULL = BIT["skull"]
NEIGHBOUR_MASK = [sum(BIT[n] for n in NEIGHBOURS[slot]) for slot in SLOTS]
SECTION_MASKS = [sum(BIT[s] for s in chain) for chain in SECTIONS.values()]
KIND_SLOTS = {kind: [s for s in SLOTS if kind_of(s) == kind] for kind in KINDS}
KIND_MASK = {kind: sum(BIT[s] for s in slots) for kind, slots in KIND_SLOTS.items()}
KIND_INDEX = {kind: i for i, kind in enumerate(KINDS)}

Utility = Callable[[int], float]

# Left and right are mirror images: a state and its mirror have the same value, so the memo
# keeps one of the two (the search remembers half as many states).
_MIRROR_SLOT = [SLOTS.index(s.replace("left-", "@").replace("right-", "left-").replace("@", "right-")) for s in SLOTS]
_MIRROR_LO = [sum(1 << _MIRROR_SLOT[i] for i in range(8) if m >> i & 1) for m in range(256)]
_MIRROR_HI = [sum(1 << _MIRROR_SLOT[i + 8] for i in range(8) if m >> i & 1) for m in range(256)]


def mirror_mask(mask: int) -> int:
    return _MIRROR_LO[mask & 255] | _MIRROR_HI[mask >> 8]


def canonical(filled: int, wrong: int, counts: tuple[int, int, int]) -> tuple[int, int, tuple[int, int, int]]:
    mirrored = (mirror_mask(filled), mirror_mask(wrong), (counts[1], counts[0], counts[2]))
    return min((filled, wrong, counts), mirrored)


def points_utility(score: int) -> float:
    return float(score)


@lru_cache(maxsize=1 << 16)
def bits(mask: int) -> tuple[int, ...]:
    return tuple(i for i in range(len(SLOTS)) if mask >> i & 1)


def popcount(mask: int) -> int:
    return mask.bit_count()


def mask_score(filled: int, wrong: int, hat: bool) -> int:
    correct = filled & ~wrong
    total = 0
    for section in SECTION_MASKS:
        total += POINTS_COMPLETE_SECTION if filled & section == section else popcount(section & correct) * POINTS_CORRECT_BONE
    total += popcount(wrong) * POINTS_WRONG_BONE
    return total * 2 if hat else total


def open_mask(filled: int) -> int:
    """Empty slots next to the chain (every slot while the chain is empty)."""
    if not filled:
        return ALL
    grown = 0
    for i in bits(filled):
        grown |= NEIGHBOUR_MASK[i]
    return grown & ~filled


@lru_cache(maxsize=1 << 16)
def mask_score_cached(filled: int, wrong: int, hat: bool) -> int:
    return mask_score(filled, wrong, hat)


@lru_cache(maxsize=1 << 16)
def is_connected_mask(mask: int) -> bool:
    if not mask:
        return True
    start = mask & -mask
    seen, frontier = start, start
    while frontier:
        grown = 0
        for i in bits(frontier):
            grown |= NEIGHBOUR_MASK[i]
        frontier = grown & mask & ~seen
        seen |= frontier
    return seen == mask


def grow(filled: int, shown: int) -> int:
    """Slots of ``shown`` that can join the chain this throw, laid in a suitable order."""
    reach = 0
    frontier = open_mask(filled) & shown if filled else 0
    while frontier:
        reach |= frontier
        nxt = 0
        for i in bits(frontier):
            nxt |= NEIGHBOUR_MASK[i]
        frontier = nxt & shown & ~reach & ~filled
    return reach


# -- the dice -----------------------------------------------------------------------------------


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


# -- lays -------------------------------------------------------------------------------------


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
    pieces = ([grow(filled, shown)] if filled else _pieces(shown))
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
                choices.update(_pieces(part) if not filled else [grow(filled, part)])
    if max_full == 0 and len(choices) > 1:
        choices.discard(0)  # greedy: something fits, so it is laid
    return tuple((m, dice_used(m)) for m in sorted(choices)), complete


@lru_cache(maxsize=None)
def dice_used(bones: int) -> tuple[int, int, int]:
    return tuple((bones & KIND_MASK[kind]).bit_count() for kind in KINDS)  # type: ignore[return-value]


def _pieces(mask: int) -> list[int]:
    pieces, left = [], mask
    while left:
        start = left & -left
        seen, frontier = start, start
        while frontier:
            nxt = 0
            for i in bits(frontier):
                nxt |= NEIGHBOUR_MASK[i]
            frontier = nxt & mask & ~seen
            seen |= frontier
        pieces.append(seen)
        left &= ~seen
    return pieces


# -- the search -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Option:
    """One way to play the throw on the table, with its value (expected points or win chance)."""

    lay: Lay
    bury: bool
    value: float
    take_hat: bool = False
    pay: tuple[int, int, int] | None = None  # dice paid by kind for the next post-op roll; None when the turn ends


@dataclass
class Advisor:
    """Memoised expectimax for one utility; keep one per utility and reuse it across turns."""

    utility: Utility = points_utility
    max_outcomes: int = MAX_OUTCOMES
    samples: int = SAMPLES
    max_full_lays: int = MAX_FULL_LAYS
    big_throw: int = BIG_THROW
    table: MemoTable | None = None  # a remembered search (memo.py), looked up before searching
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
    def before_throw(self, filled: int, wrong: int, hat: bool, counts: tuple[int, int, int], post_ops: int) -> tuple[float, bool]:
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
        reach = grow(filled, throw.bones) if filled else max(_pieces(throw.bones) or [0], key=lambda m: mask_score_cached(m, 0, False))
        now = filled | reach
        best = self.utility(mask_score_cached(now, wrong, hat))
        can_hat = throw.hat and not hat and now & SKULL and not wrong & SKULL
        if can_hat:
            best = max(best, self.utility(mask_score_cached(now, wrong, True)))
        if reach or can_hat:
            best = max(best, self.lost)
        return best

    # V with ``counts`` dice in hand after laying; the next post-op roll costs ``cost``.
    # A hat laid from this throw stays (taking it back would be not laying it: ``hat_laid_now``).
    def after_lay(self, filled: int, wrong: int, hat: bool, counts: tuple[int, int, int],
                  cost: int, hat_laid_now: bool = False) -> tuple[float, bool, tuple[bool, tuple[int, int, int]] | None]:
        state = canonical(filled, wrong, counts)
        flip = state != (filled, wrong, counts)  # the memo holds the mirror: its left pays are our right
        key = (state, hat, cost, hat_laid_now)
        hit = self._post.get(key)
        if hit is None and self.table is not None:
            hit = self.table.after_lay(state_code(*key))
        if hit is not None:
            return _flipped(hit) if flip else hit
        best, exact, choice = self.lost, True, None
        for take_hat in ((False, True) if hat and not hat_laid_now else (False,)):
            hand = (counts[0], counts[1], counts[2] + (1 if take_hat else 0))
            if sum(hand) - cost < 1:
                continue
            for pay in _payments(hand, cost):
                value, ok = self.before_throw(filled, wrong, hat and not take_hat, (hand[0] - pay[0], hand[1] - pay[1], hand[2] - pay[2]), cost)
                exact = exact and ok
                if choice is None or value > best:
                    best, choice = value, (take_hat, pay)
        result = (best, exact, choice)
        self._post[key] = _flipped(result) if flip else result
        return result

    def _best(self, filled: int, wrong: int, hat: bool, counts: tuple[int, int, int], post_ops: int, throw: Throw,
              max_full: int) -> tuple[float, bool]:
        best, exact, _ = self._plays(filled, wrong, hat, counts, post_ops, throw, max_full, None)
        return best, exact

    def options(self, filled: int, wrong: int, hat: bool, counts: tuple[int, int, int], post_ops: int,
                throw: Throw, lay_done: bool = False) -> tuple[list[Option], bool]:
        """Every play considered for ``throw``, best first, and whether every value is exact."""
        found: list[Option] = []
        # A big throw has dice to spare: as inside the search, every fitting bone is laid.
        max_full = self.max_full_lays if sum(counts) <= self.big_throw else 0
        _, exact, _ = self._plays(filled, wrong, hat, counts, post_ops, throw, max_full, found,
                                  forced=Lay() if lay_done else None)
        found.sort(key=lambda o: -o.value)
        return found, exact

    def _plays(self, filled: int, wrong: int, hat: bool, counts: tuple[int, int, int], post_ops: int, throw: Throw,
               max_full: int, found: list[Option] | None, forced: Lay | None = None) -> tuple[float, bool, bool]:
        """Value every play of ``throw``; list them in ``found`` when given. Returns the best
        value, whether it is exact, and whether any play was possible."""
        must_lay = post_ops > 0 and forced is None
        best, any_play = self.lost, False
        choices, exact = bone_choices(filled, throw.bones, max_full)
        can_hat = throw.hat and not hat and not wrong & SKULL
        l, r, c = counts
        for bones, (ul, ur, uc) in choices:
            now = filled | bones
            for lay_hat in ((False, True) if can_hat and now & SKULL and not wrong & SKULL else (False,)):
                hatted = hat or lay_hat
                if throw.grave:
                    v = self.utility(mask_score_cached(now, wrong, hatted))
                    if found is not None:
                        found.append(Option(_joined(forced, Lay(bones, lay_hat)), True, v))
                    if not any_play or v > best:
                        best = v
                    any_play = True
                if must_lay and not bones and not lay_hat:
                    continue
                v, ok, choice = self.after_lay(now, wrong, hatted, (l - ul, r - ur, c - uc - lay_hat), post_ops + 1, lay_hat)
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
                if throw.other[kind]:
                    sources = [(None, throw.bones)]
                else:
                    sources = [(i, throw.bones & ~(1 << i)) for i in bits(throw.bones & KIND_MASK[KINDS[kind]])]
                hand = (l - (kind == 0), r - (kind == 1), c - (kind == 2))
                for face, rest in sources:
                    for slot in bits(open_mask(filled)):
                        if face is not None and counts[kind] > 1 and grow(filled | 1 << slot, rest | 1 << face) >> face & 1:
                            exact = False  # a twin of the given-up face could have followed it
                        lay = Lay(wrong_slot=slot, wrong_kind=kind, wrong_face=face)
                        after = Throw(rest & ~(1 << slot), throw.other, throw.hat, throw.grave)
                        v, ok, _ = self._plays(filled | 1 << slot, wrong | 1 << slot, hat, hand, post_ops, after,
                                               max_full, found, forced=lay)
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


def layout_masks(layout: Layout) -> tuple[int, int]:
    filled = wrong = 0
    for slot, face in layout.slots.items():
        filled |= BIT[slot]
        if face != slot:
            wrong |= BIT[slot]
    return filled, wrong


# -- advice on a real throw ---------------------------------------------------------------------


@dataclass(frozen=True)
class Play:
    """A play in face ids: what to lay where, then bury, or pay these dice and roll again."""

    lay: tuple[tuple[str, str], ...]  # (face, slot); the hat goes on "skull"
    bury: bool
    take_hat: bool
    pay: tuple[str, ...] | None  # None: no post-op roll follows (buried, or the turn is lost)
    value: float

    @property
    def then(self) -> str:
        return "bury" if self.bury else ("roll" if self.pay is not None else "lose")

    def to_json(self) -> dict:
        return {"lay": [{"face": f, "slot": s} for f, s in self.lay], "then": self.then,
                "take_hat": self.take_hat, "pay": list(self.pay) if self.pay is not None else None,
                "expected": round(self.value, 4)}


def advise(advisor: Advisor, layout: Layout, roll: list[str], next_cost: int, lay_done: bool = False) -> tuple[list[Play], bool]:
    """Every play considered for ``roll`` (the dice not laid, as thrown), best first, and whether
    the values are exact. ``next_cost`` is the cost of the next post-op roll (1 after the pre-op);
    ``lay_done``: a die of this post-op roll is already laid, so nothing more must be."""
    advisor.forget_if_full()
    filled, wrong = layout_masks(layout)
    counts = tuple(sum(1 for f in roll if kind_of(f) == kind) for kind in KINDS)
    throw = throw_from_faces(roll, filled, not layout.hat and not wrong & SKULL)
    options, exact = advisor.options(filled, wrong, layout.hat, counts, next_cost - 1, throw, lay_done)  # type: ignore[arg-type]
    plays, seen = [], set()
    for option in options:
        play = _play_of(option, roll, layout)
        key = (play.lay, play.then)
        if key not in seen:  # the same lay may be listed with and without a bury; keep the better
            seen.add(key)
            plays.append(play)
    return plays, exact


def _play_of(option: Option, roll: list[str], layout: Layout) -> Play:
    loose = list(roll)
    lay: list[tuple[str, str]] = []
    filled = set(layout.filled)
    if option.lay.wrong_slot is not None:  # the forced wrong bone goes first: later bones may hang from it
        kind = KINDS[option.lay.wrong_kind or 0]
        if option.lay.wrong_face is not None:
            face = SLOTS[option.lay.wrong_face]
        else:
            face = next(f for f in loose if f in layout.slots and kind_of(f) == kind)
        lay.append((face, SLOTS[option.lay.wrong_slot]))
        loose.remove(face)
        filled.add(SLOTS[option.lay.wrong_slot])
    for slot in chain_order(frozenset(filled), option.lay.bones):
        lay.append((slot, slot))
        loose.remove(slot)
    if option.lay.hat:
        lay.append((HAT, "skull"))
        loose.remove(HAT)
    pay = None
    if option.pay is not None and not option.bury:
        if option.take_hat:
            loose.append(HAT)
        pay_list: list[str] = []
        for kind, n in zip(KINDS, option.pay):
            pay_list += [f for f in _junk_first(loose, layout) if kind_of(f) == kind][:n]
        pay = tuple(pay_list)
    return Play(tuple(lay), option.bury, option.take_hat, pay, option.value)


def chain_order(filled: frozenset[str], bones: int) -> list[str]:
    """The slots of ``bones`` in an order that keeps the chain connected as each is laid."""
    order, have, todo = [], {s for s in filled}, [SLOTS[i] for i in bits(bones)]
    while todo:
        nxt = next((s for s in todo if not have or NEIGHBOURS[s] & have), todo[0])
        order.append(nxt)
        have.add(nxt)
        todo.remove(nxt)
    return order


def _junk_first(faces: list[str], layout: Layout) -> list[str]:
    """Dice to give up first: faces whose slot is full, then the rest (a thrown die forgets its face)."""
    return sorted(faces, key=lambda f: (f not in layout.slots and f != HAT, f))
