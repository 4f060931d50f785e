"""The advisor's answer in face ids: plays for a real throw, a turn state from JSON, the summary line
(the CLI and the page share this).

STATE.json fields (see docs/advisor.md):

- ``roll`` (required): the faces of the latest throw, every die not laid yet.
- ``layout``: the skeleton so far (``{"slots": {...}, "hat": false}``), default empty.
- ``post_op``: the number of the next post-op roll, which is also its cost in dice;
  1 while the roll on the table is the pre-op roll (default 1).
- ``dice``: the dice not yet laid by kind, ``{"left": 3, "right": 2, "center": 4}``;
  optional, and when given it must match ``roll``.
- ``score``, ``opponents``, ``target``: the player's score, the other players'
  scores and the game's target (default 100). With them the answer adds the play
  that maximises the chance to win, and says whether the two agree.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from ...errors import BadInput
from .advisor import Advisor, Option, SearchTooLong
from .dice import DICE_PER_KIND, DICE_TOTAL, HAT, KINDS, SLOTS, kind_of
from .layout import Layout, parse_faces
from .match import DEFAULT_TARGET, MOST_TARGET
from .skeleton_masks import chain_order, layout_masks
from .throws import hat_can_go_on, throw_from_faces

WIN_TABLE_MOST = 300  # target points up to which the chance to win is worked out (its table grows as the square)


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
        return {
            "lay": [{"face": f, "slot": s} for f, s in self.lay],
            "then": self.then,
            "take_hat": self.take_hat,
            "pay": list(self.pay) if self.pay is not None else None,
            "expected": round(self.value, 4),
        }


def advise(
    advisor: Advisor, layout: Layout, roll: list[str], next_cost: int, lay_done: bool = False
) -> tuple[list[Play], bool]:
    """Every play considered for ``roll`` (the dice not laid, as thrown), best first, and whether
    the values are exact. ``next_cost`` is the cost of the next post-op roll (1 after the pre-op);
    ``lay_done``: a die of this post-op roll is already laid, so nothing more must be."""
    advisor.forget_if_full()
    filled, wrong = layout_masks(layout)
    counts = tuple(sum(1 for f in roll if kind_of(f) == kind) for kind in KINDS)
    throw = throw_from_faces(roll, filled, hat_can_go_on(layout.hat, wrong))
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


def _junk_first(faces: list[str], layout: Layout) -> list[str]:
    """Dice to give up first: faces whose slot is full, then the rest (a thrown die forgets its face)."""
    return sorted(faces, key=lambda f: (f not in layout.slots and f != HAT, f))


SHOWN_OPTIONS = 8
STATE_FIELDS = {"roll", "layout", "post_op", "dice", "score", "opponents", "target"}


@dataclass(frozen=True)
class TurnState:
    layout: Layout
    roll: tuple[str, ...]
    post_op: int
    score: int | None = None
    opponents: tuple[int, ...] = ()
    target: int = DEFAULT_TARGET
    lay_done: bool = False  # a die of this post-op roll is already laid (the live table)


def _whole(data: dict, name: str, default: Any, low: int | None = None, high: int | None = None) -> Any:
    value = data.get(name, default)
    if value is default:
        return value
    if (
        not isinstance(value, int)
        or isinstance(value, bool)
        or (low is not None and value < low)
        or (high is not None and value > high)
    ):
        raise BadInput(
            f"{name} must be a whole number"
            + (f" from {low} to {high}" if low is not None and high is not None else "")
            + (f" of at least {low}" if low is not None and high is None else "")
        )
    return value


def parse_state(data: Any) -> TurnState:
    if not isinstance(data, dict):
        raise BadInput('a turn state is a JSON object with at least "roll"')
    unknown = set(data) - STATE_FIELDS
    if unknown:
        raise BadInput(f"unknown field {sorted(unknown)[0]!r} in the turn state")
    if "roll" not in data:
        raise BadInput('the turn state needs "roll": the faces of the latest throw')
    roll = parse_faces(data["roll"], "roll")
    layout = Layout.from_json(data.get("layout", {"slots": {}, "hat": False}))
    post_op = _whole(data, "post_op", 1, low=1)
    counts = {kind: sum(1 for f in roll if kind_of(f) == kind) for kind in KINDS}
    for kind, n in counts.items():
        if n > DICE_PER_KIND:
            raise BadInput(f"the roll shows {n} {kind} dice; there are only {DICE_PER_KIND}")
    if "dice" in data:
        dice = data["dice"]
        if (
            not isinstance(dice, dict)
            or set(dice) - set(KINDS)
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in dice.values())
        ):
            raise BadInput('dice must map "left", "right" and "center" to numbers of dice')
        for kind in KINDS:
            if dice.get(kind, 0) != counts[kind]:
                raise BadInput(f"dice says {dice.get(kind, 0)} {kind} not laid, but the roll shows {counts[kind]}")
    accounted = len(layout.slots) + layout.hat + len(roll) + post_op * (post_op - 1) // 2
    if accounted > DICE_TOTAL:
        raise BadInput(
            f"this state needs {accounted} dice (laid, paid for {post_op - 1} post-op rolls, and rolled); there are {DICE_TOTAL}"
        )
    if not roll:
        raise BadInput("the roll is empty: there is nothing to advise on")
    score = _whole(data, "score", None)
    opponents = data.get("opponents", [])
    if not isinstance(opponents, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in opponents):
        raise BadInput("opponents must be a list of the other players' scores")
    target = _whole(data, "target", DEFAULT_TARGET, low=1, high=MOST_TARGET)
    if opponents and score is None:
        raise BadInput("opponents' scores need the player's own score too")
    return TurnState(layout, tuple(roll), post_op, score, tuple(opponents), target)


# The fallback when the full search runs long: sampled throws, every fitting bone laid.
COARSE = Advisor(max_outcomes=1, samples=4, max_full_lays=0, big_throw=0)


@contextmanager
def budget(advisor: Advisor, throws: int | None):
    """Let ``advisor`` weigh at most ``throws`` throws (memo hits included) before SearchTooLong."""
    advisor.throws_left = throws
    try:
        yield
    finally:
        advisor.throws_left = None


def advice_for(state: TurnState, advisor: Advisor, throws: int | None = None, win: bool = True) -> dict[str, Any]:
    """The recommended play and the value of every play considered, as JSON-ready data.
    ``advisor``: the expected-points search (keep one per process: its memo is the speed).
    ``throws``: a budget per search (the page's; the CLI has none). Past it the points play
    comes from a coarse search and the win-chance play is left out, both said in the answer.
    ``win``: False leaves out the win-chance play (the page asks for the points play first)."""
    started = time.perf_counter()

    def weigh(search: Advisor) -> tuple[list[Play], bool]:
        with budget(search, throws):
            return advise(search, state.layout, list(state.roll), state.post_op, state.lay_done)

    try:
        plays, exact = weigh(advisor)
        coarse = False
    except SearchTooLong:
        plays, exact = weigh(COARSE)
        coarse = True
    result: dict[str, Any] = {
        "action": plays[0].to_json(),
        "expected": round(plays[0].value, 4),
        "exact": exact,
        "options": [p.to_json() for p in plays[:SHOWN_OPTIONS]],
    }
    summary = describe(plays) + (" (a quick estimate)" if coarse else "")
    result["coarse"] = coarse
    win_plays: list[Play] = []
    if win and state.score is not None and state.opponents:
        from .win import chance_to_win, win_utility
        from .win_play import win_plays as weigh_for_the_win

        leader = max(state.opponents)
        method = ""
        if state.target > WIN_TABLE_MOST:
            result["win_skipped"] = f"the chance to win is worked out for games to at most {WIN_TABLE_MOST} points"
        elif state.score < state.target and leader < state.target:
            try:
                with budget(advisor, throws):  # rollouts ask the points search: off its memo it may run long
                    win_plays, method = weigh_for_the_win(
                        state.layout,
                        list(state.roll),
                        state.post_op,
                        state.lay_done,
                        win_utility(state.score, leader, state.target),
                        plays,
                        advisor,
                    )
            except SearchTooLong:
                result["win_skipped"] = "the win-chance search ran too long for the page"
        if win_plays:
            best = win_plays[0]
            chance_of = {(p.lay, p.then, p.pay): p.value for p in win_plays}
            points_play_chance = chance_of.get((plays[0].lay, plays[0].then, plays[0].pay), 0.0)
            agree = points_play_chance >= best.value - 1e-9  # a tie is agreement
            if agree:
                best = replace(plays[0], value=points_play_chance)
            result["win"] = {
                "action": best.to_json() | {"chance": round(best.value, 4)},
                "chance_now": round(chance_to_win(state.score, leader, state.target), 4),
                "chance_of_points_play": round(points_play_chance, 4),
                "agree": agree,
                "method": method,  # "exact", or "estimated": this play, then points play (win_play.py)
            }
            if not agree:
                summary += f"; to win the game instead: {describe([best], unit='chance to win')}"
    result["summary"] = summary
    result["ms"] = round((time.perf_counter() - started) * 1000, 1)
    return result


def state_of_match(match: Any) -> TurnState | None:
    """The advisor's view of a live game: None unless dice wait to be laid."""
    turn = match.turn
    if turn.phase != "lay" or not turn.loose:
        return None
    others = [s for i, s in enumerate(match.scores) if i != match.current]
    return TurnState(
        turn.layout,
        tuple(turn.loose),
        turn.next_cost,
        match.scores[match.current],
        tuple(others),
        match.target,
        lay_done=bool(turn.post_ops and turn.laid_this_roll),
    )


def describe(plays: list[Play], unit: str = "points expected") -> str:
    best = plays[0]
    names = [
        "the hat" if face == "hat" else face if face == slot else f"{face} wrong in {slot}" for face, slot in best.lay
    ]
    bones = [n for n in names if n != "the hat"]
    if len(bones) > 5:  # a line a player can read at a glance; the JSON lists every die
        names = [f"all {len(bones)} fitting bones"] + (["the hat"] if "the hat" in names else [])
    laid = ", ".join(names) or "nothing"
    value = f"{best.value:.0%}" if unit.startswith("chance") else f"{best.value:.1f}"
    if best.then == "bury":
        text = f"lay {laid}, then bury ({value} {unit})"
    elif best.then == "roll":
        hat = ", take the hat back" if best.take_hat else ""
        text = f"lay {laid}{hat}, then pay {', '.join(best.pay or ())} and roll again ({value} {unit})"
    else:
        text = f"lay {laid}: the skeleton is lost whatever you do"
    bury = next((p for p in plays if p.then == "bury"), None)
    if bury is not None and best.then != "bury" and len(plays) > 1:
        text += f"; burying now: {bury.value:.1f}" if not unit.startswith("chance") else ""
    return text
