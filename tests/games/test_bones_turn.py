"""A turn and a game as the rule book plays them."""

import pytest

from companion.errors import BadInput, IllegalPlay
from companion.games.rolling_bones import Match, Turn
from companion.games.rolling_bones.turn import BURIED, LOST, OVER, THROW

LEFT6 = ["left-upper-arm", "left-forearm", "left-hand", "left-thigh", "left-lower-leg", "left-foot"]
RIGHT6 = [f.replace("left", "right") for f in LEFT6]
CENTER6 = ["hat", "skull", "ribcage", "spine", "pelvis", "gravestone"]


def throw(left, right, center):
    return list(left) + list(right) + list(center)


def test_pre_op_roll_needs_six_dice_of_each_kind():
    with pytest.raises(IllegalPlay, match="6 left"):
        Turn().throw(["skull"] * 18)


def test_a_perfect_pre_op_roll_buries_for_50():
    turn = Turn().throw(throw(LEFT6, RIGHT6, CENTER6))
    for bone in ["skull", "ribcage", "spine", "pelvis", *LEFT6, *RIGHT6]:
        turn = turn.lay(bone)
    turn = turn.lay("hat").bury()
    assert (turn.phase, turn.outcome, turn.points) == (OVER, BURIED, 50)


def test_no_gaps_and_no_wrong_bone_by_choice():
    turn = Turn().throw(throw(LEFT6, RIGHT6, CENTER6)).lay("skull")
    with pytest.raises(IllegalPlay, match="not next to the chain"):
        turn.lay("pelvis")
    with pytest.raises(IllegalPlay, match="wrong slot only when"):
        turn.lay("left-foot", "ribcage")


def test_hat_only_on_a_real_skull():
    turn = Turn().throw(throw(LEFT6, RIGHT6, CENTER6)).lay("ribcage")
    with pytest.raises(IllegalPlay, match="real skull"):
        turn.lay("hat")


def test_bury_only_on_a_rolled_gravestone():
    turn = Turn().throw(throw(LEFT6, RIGHT6, ["skull"] * 6)).lay("skull")
    with pytest.raises(IllegalPlay, match="gravestone"):
        turn.bury()


def test_post_op_costs_one_then_two_then_three():
    turn = Turn().throw(throw(["left-foot"] * 6, ["right-foot"] * 6, ["skull"] * 6)).lay("skull")
    with pytest.raises(IllegalPlay, match="costs 1 dice"):
        turn.pay(["left-foot", "left-foot"])
    turn = turn.pay(["left-foot"])
    assert turn.phase == THROW and dict(turn.to_throw) == {"left": 5, "right": 6, "center": 5}
    with pytest.raises(IllegalPlay, match="5 left"):
        turn.throw(throw(LEFT6, RIGHT6, CENTER6[:5]))
    turn = turn.throw(throw(["left-foot"] * 5, ["right-foot"] * 6, ["ribcage"] * 5)).lay("ribcage")
    with pytest.raises(IllegalPlay, match="costs 2 dice"):
        turn.pay(["left-foot"])
    turn = turn.pay(["left-foot", "right-foot"])
    assert turn.post_ops == 2 and turn.next_cost == 3


def test_after_a_post_op_roll_a_die_must_be_laid_before_paying():
    turn = Turn().throw(throw(["left-foot"] * 6, ["right-foot"] * 6, ["skull"] * 6)).lay("skull").pay(["left-foot"])
    turn = turn.throw(throw(["left-foot"] * 5, ["right-foot"] * 6, ["ribcage"] * 5))
    with pytest.raises(IllegalPlay, match="at least one die must be laid"):
        turn.pay(["left-foot", "left-foot"])


def test_forced_wrong_bone_when_nothing_fits():
    turn = Turn().throw(throw(["left-foot"] * 6, ["right-foot"] * 6, ["skull"] * 6)).lay("skull").pay(["right-foot"])
    turn = turn.throw(throw(["left-foot"] * 6, ["right-foot"] * 5, ["spine"] * 5))
    assert {(m.face, m.slot) for m in turn.legal_lays()} == {
        ("left-foot", "ribcage"),
        ("right-foot", "ribcage"),
        ("spine", "ribcage"),
    }
    turn = turn.lay("spine", "ribcage")
    assert turn.layout.score().total == 1 - 5
    with pytest.raises(IllegalPlay):  # exactly one wrong bone
        turn.lay("left-foot", "spine")


def test_turn_is_lost_when_no_roll_can_be_paid_and_no_gravestone():
    turn = Turn().throw(throw(["left-foot"] * 6, ["right-foot"] * 6, ["skull"] * 6)).lay("skull")
    turn = turn.pay(["left-foot"]).throw(throw(["left-foot"] * 5, ["right-foot"] * 6, ["ribcage"] * 5)).lay("ribcage")
    turn = turn.pay(["left-foot"] * 2).throw(throw(["left-foot"] * 3, ["right-foot"] * 6, ["spine"] * 4)).lay("spine")
    turn = turn.pay(["left-foot"] * 3).throw(throw([], ["right-foot"] * 6, ["pelvis"] * 3)).lay("pelvis")
    turn = turn.pay(["right-foot"] * 4).throw(throw([], ["right-foot"] * 2, ["pelvis"] * 2))
    # post-op 5 would cost 5 of the 4 loose dice; the forced wrong bone is laid first
    turn = turn.lay("right-foot", "right-thigh")
    assert (turn.phase, turn.outcome, turn.points) == (OVER, LOST, 0)


def test_hat_taken_back_is_thrown_again():
    turn = Turn().throw(throw(["left-foot"] * 6, ["right-foot"] * 6, ["skull", "hat", "hat", "hat", "hat", "hat"]))
    turn = turn.lay("skull").lay("hat").take_hat()
    assert "hat" in turn.loose and not turn.layout.hat
    turn = turn.pay(["left-foot"])
    assert dict(turn.to_throw)["center"] == 5


def test_match_to_target_with_turn_order():
    match = Match.start({"players": ["ann", "bob"], "target": 20})
    perfect = throw(LEFT6, RIGHT6, CENTER6)
    match = match.apply({"type": "roll", "faces": perfect})
    for bone in ["skull", "ribcage", "spine", "pelvis"]:
        match = match.apply({"type": "lay", "face": bone})
    with pytest.raises(IllegalPlay, match="not over"):
        match.apply({"type": "next_turn"})
    match = match.apply({"type": "lay", "face": "hat"}).apply({"type": "bury"})
    assert match.scores == (10, 0) and match.history == (("ann", 10),)
    match = match.apply({"type": "next_turn"})
    assert match.player == "bob"
    match = match.apply({"type": "roll", "faces": perfect})
    for bone in ["skull", "ribcage", "spine", "pelvis", *LEFT6]:
        match = match.apply({"type": "lay", "face": bone})
    match = match.apply({"type": "lay", "face": "hat"}).apply({"type": "bury"})
    assert match.winner == "bob" and match.scores == (10, 30)
    with pytest.raises(IllegalPlay, match="game is over"):
        match.apply({"type": "next_turn"})


@pytest.mark.parametrize(
    "setup, message",
    [
        ({"players": ["solo"]}, "at least 2"),
        ({"players": ["a", "a"]}, "different"),
        ({"players": ["a", "b"], "target": 0}, "target"),
    ],
)
def test_bad_setups(setup, message):
    with pytest.raises(BadInput, match=message):
        Match.start(setup)
