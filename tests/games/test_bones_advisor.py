"""The advisor against an independent brute force over real dice, plus legality and easy cases.

The brute force knows nothing of the advisor's abstractions: it plays the turn
state machine (turn.py) die by die, every ordered throw of the dice, every
legal lay in every order, every payment."""

from __future__ import annotations

import random
from collections import Counter
from functools import cache
from itertools import combinations_with_replacement, product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.rolling_bones.advice import advise
from companion.games.rolling_bones.advisor import Advisor
from companion.games.rolling_bones.dice import DICE_TOTAL, FACE_IDS, FACES, KINDS, SLOTS
from companion.games.rolling_bones.layout import Layout
from companion.games.rolling_bones.turn import LAY, OVER, THROW, Turn

FACES_OF = {kind: [f for f in FACE_IDS if FACES[f][0] == kind] for kind in KINDS}


@cache
def brute_value(turn: Turn) -> float:
    """The best expected points from ``turn`` by exhaustive search."""
    if turn.phase == OVER:
        return float(turn.points)
    if turn.phase == THROW:
        dice = [kind for kind, n in turn.to_throw for _ in range(n)]
        throws = list(product(*(FACES_OF[k] for k in dice)))
        return sum(brute_value(turn.throw(list(faces))) for faces in throws) / len(throws)
    options = [brute_value(turn.lay(move.face, move.slot)) for move in turn.legal_lays()]
    # Taking the hat back only matters just before paying (else lay/take-back would loop).
    for hand in [turn] + ([turn.take_hat()] if turn.layout.hat and turn.lay_done() else []):
        if not hand.can_pay():
            continue
        for paid in set(combinations_with_replacement(sorted(hand.loose), hand.next_cost)):
            if not Counter(paid) - Counter(hand.loose):
                options.append(brute_value(hand.pay(list(paid))))
    return max(options) if options else 0.0


def small_turn(layout: dict[str, str], roll: list[str], post_ops: int, hat: bool = False) -> Turn:
    return Turn(layout=Layout(layout, hat), phase=LAY, loose=tuple(roll), post_ops=post_ops)


SMALL_CASES = [
    # chain of the thorax, 2 dice thrown on post-op 2: lay the fitting arm bone or not, pay, throw the last
    (
        {"skull": "skull", "ribcage": "ribcage", "spine": "spine", "pelvis": "pelvis"},
        ["left-upper-arm", "hat", "spine"],
        1,
    ),
    # nothing fits: a forced wrong bone, then the rest may follow it
    ({"ribcage": "ribcage"}, ["left-forearm", "pelvis", "right-hand"], 1),
    ({"ribcage": "ribcage"}, ["left-forearm", "left-forearm", "skull"], 2),
    # the hat: lay it, or keep its die to throw for the gravestone
    ({"skull": "skull", "ribcage": "ribcage"}, ["hat", "right-upper-arm", "left-thigh"], 1),
    ({"skull": "skull", "ribcage": "ribcage", "spine": "spine"}, ["hat", "gravestone", "pelvis"], 2),
    # pre-op: nothing must be laid
    ({}, ["skull", "left-foot", "gravestone"], 0),
    ({"left-forearm": "left-forearm"}, ["left-hand", "left-upper-arm", "ribcage", "hat"], 1),
]


@pytest.mark.parametrize("slots, roll, post_ops", SMALL_CASES)
def test_expected_points_match_a_brute_force_over_every_throw(slots, roll, post_ops):
    turn = small_turn(slots, roll, post_ops)
    plays, exact = advise(Advisor(), turn.layout, roll, post_ops + 1)
    assert exact
    assert plays[0].value == pytest.approx(brute_value(turn), abs=1e-9)


def test_with_the_hat_on_the_skull_taking_it_back_is_weighed():
    slots = {"skull": "skull", "ribcage": "ribcage", "spine": "spine"}
    turn = small_turn(slots, ["left-upper-arm", "right-foot"], 1, hat=True)
    plays, exact = advise(Advisor(), turn.layout, list(turn.loose), 2)
    assert exact and plays[0].value == pytest.approx(brute_value(turn), abs=1e-9)


def test_a_perfect_skeleton_with_the_hat_and_a_gravestone_is_buried_for_50():
    full = Layout({slot: slot for slot in SLOTS}, hat=True)
    plays, _ = advise(Advisor(), full, ["gravestone"], 1)
    assert plays[0].then == "bury" and plays[0].value == 50


def test_no_gravestone_and_no_dice_to_pay_means_the_skeleton_is_lost():
    layout = Layout({"skull": "skull", "ribcage": "ribcage"})
    plays, exact = advise(Advisor(), layout, ["left-foot", "right-foot"], 3)
    assert exact and {p.then for p in plays} == {"lose"} and plays[0].value == 0


def test_a_gravestone_on_a_weak_skeleton_with_many_dice_left_says_roll_again():
    layout = Layout({"skull": "skull"})
    roll = ["gravestone", "left-foot", "right-foot", "left-foot", "right-foot", "pelvis", "pelvis"]
    plays, _ = advise(Advisor(), layout, roll, 1)
    assert plays[0].then == "roll"
    bury = next(p for p in plays if p.then == "bury")
    assert bury.value < plays[0].value


def test_an_approximate_search_never_lays_away_the_last_die_that_can_show_a_gravestone():
    # rules/rolling-bones.md: "bury (only if the latest roll shows a gravestone)", and the
    # gravestone is a centre face. A 9-die throw is past the exact search (every fitting bone
    # laid): laying all four centre bones held in hand would leave no way ever to bury.
    roll = [
        "skull",
        "ribcage",
        "spine",
        "pelvis",
        "left-upper-arm",
        "left-forearm",
        "right-upper-arm",
        "left-upper-arm",
        "right-upper-arm",
    ]
    centre_in_hand = sum(FACES[f][0] == "center" for f in roll)
    plays, exact = advise(Advisor(), Layout({}), roll, 1)
    assert not exact and plays[0].value > 2
    laid_centre = sum(FACES[face][0] == "center" for face, _ in plays[0].lay)
    paid_centre = sum(FACES[face][0] == "center" for face in plays[0].pay)
    assert plays[0].then == "roll" and centre_in_hand - laid_centre - paid_centre >= 1


# -- the advice is legal in every state (hypothesis plays random turns to a decision) ----------

# Legality does not depend on the fidelity: a coarse advisor, shared so its memo stays warm.
COARSE = Advisor(max_outcomes=1, samples=2, max_full_lays=0)


@st.composite
def decision_points(draw):
    """A turn at a decision: random throws, random legal lays and payments before it."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    turn = Turn()
    rolls = draw(st.integers(0, 4))
    for step in range(rolls + 1):
        turn = turn.throw(turn.random_throw(rng))
        if turn.phase == OVER or step == rolls:
            break
        for _ in range(rng.randint(0, 4)):
            moves = [m for m in turn.legal_lays() if m.face != "gravestone"]
            if not moves:
                break
            move = rng.choice(moves)
            turn = turn.lay(move.face, move.slot)
        if turn.phase == OVER or not turn.can_pay():
            break
        turn = turn.pay(rng.sample(list(turn.loose), turn.next_cost))
    return turn


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(decision_points())
def test_every_recommended_play_is_legal(turn):
    if turn.phase != LAY or turn.laid_this_roll:
        return
    plays, _ = advise(COARSE, turn.layout, list(turn.loose), turn.next_cost)
    for play in plays:
        t = turn
        for face, slot in play.lay:
            t = t.lay(face, slot)
            if t.phase == OVER:  # the state machine ends a hopeless turn at once
                assert play.then == "lose" and t.outcome == "lost"
                break
        if t.phase == OVER:
            continue
        if play.then == "bury":
            t = t.bury()
            assert t.phase == OVER and t.points == t.layout.score().total
        elif play.then == "roll":
            if play.take_hat:
                t = t.take_hat()
            t = t.pay(list(play.pay))
            assert t.phase == THROW
        else:
            assert t.phase == OVER or not t.can_pay()
    assert sum(n for _, n in turn.to_throw) <= DICE_TOTAL


def test_near_the_target_the_win_objective_buries_where_points_say_roll():
    from companion.games.rolling_bones.advice import advice_for, parse_state

    state = parse_state(
        {
            "layout": {"slots": {"skull": "skull"}, "hat": False},
            "roll": ["gravestone", "left-foot", "right-foot", "left-foot", "right-foot", "pelvis", "pelvis"],
            "score": 99,
            "opponents": [90, 20],
            "target": 100,
        }
    )
    result = advice_for(state, Advisor())
    assert result["action"]["then"] == "roll"  # a 1-point skeleton: more points are likely
    assert result["win"]["agree"] is False
    assert result["win"]["action"]["then"] == "bury" and result["win"]["action"]["chance"] == 1.0
    assert result["win"]["chance_of_points_play"] < 1.0
    assert "to win the game instead" in result["summary"]


def test_the_win_chance_table_is_a_sane_race():
    from companion.games.rolling_bones.win import chance_to_win

    assert chance_to_win(99, 0, 100) > chance_to_win(50, 50, 100) > chance_to_win(0, 99, 100)
    assert 0.5 < chance_to_win(50, 50, 100) < 0.65  # moving first is worth something, not everything
    assert chance_to_win(100, 99, 100) == 1.0


def test_a_search_past_its_budget_stops_and_leaves_the_memo_right():
    from companion.games.rolling_bones.advice import SearchTooLong, budget

    layout = Layout({"skull": "skull", "ribcage": "ribcage"})
    roll = ["pelvis", "spine", "left-upper-arm", "right-upper-arm", "hat", "left-foot"]
    interrupted = Advisor()
    with pytest.raises(SearchTooLong):
        with budget(interrupted, 25):
            advise(interrupted, layout, roll, 2)
    assert interrupted.throws_left is None  # the budget is gone again
    after, _ = advise(interrupted, layout, roll, 2)
    fresh, _ = advise(Advisor(), layout, roll, 2)
    assert [p.value for p in after] == [p.value for p in fresh]


# -- the chance to win, fast: exact when small, else this play then points play --------------


def test_estimated_win_chances_pick_the_exact_best_play(monkeypatch):
    from companion.advisor_memo import points_advisor
    from companion.games.rolling_bones import win_play
    from companion.games.rolling_bones.win import win_utility

    layout = Layout({"skull": "skull"})
    roll = ["gravestone", "left-foot", "right-foot", "left-foot", "right-foot", "pelvis", "pelvis"]
    utility = win_utility(99, 90, 100)  # points say roll on (1.1 against 1.0); burying 1 point wins
    advisor = points_advisor()
    points, _ = advise(advisor, layout, roll, 1)
    assert points[0].then == "roll"
    exact, how = win_play.win_plays(layout, roll, 1, False, utility, points, advisor)
    assert how == "exact" and exact[0].then == "bury"
    monkeypatch.setattr(win_play, "EXACT_THROWS", 0)
    estimated, how = win_play.win_plays(layout, roll, 1, False, utility, points, advisor)
    assert how == "estimated" and {p.then for p in estimated} == {"bury", "roll"}
    value = {(p.lay, p.then): p.value for p in exact}  # each lay with its best payment for the win
    assert value[(estimated[0].lay, estimated[0].then)] == pytest.approx(exact[0].value)
    for play in estimated:  # bury and lose exactly; a roll again within the rollouts' spread
        tolerance = 0.1 if play.then == "roll" else 1e-9
        assert play.value == pytest.approx(value[(play.lay, play.then)], abs=tolerance)


def test_a_full_throw_gets_its_win_chance_estimated_not_searched_for_half_a_minute():
    from companion.advisor_memo import points_advisor
    from companion.games.rolling_bones.advice import advice_for, parse_state

    rng = random.Random(3)
    roll = [rng.choice(FACES_OF[kind]) for kind in KINDS for _ in range(6)]
    state = parse_state({"roll": roll, "score": 40, "opponents": [55, 30, 10], "target": 300})
    result = advice_for(state, points_advisor())
    assert result["win"]["method"] == "estimated"
    assert 0 < result["win"]["chance_of_points_play"] < 1
