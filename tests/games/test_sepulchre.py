"""The Undertaker's checks, one row of rules/sepulchre.md at a time: graves before, graves after, verdict."""

import pytest

from companion.errors import BadInput, IllegalPlay
from companion.games.sepulchre import Sepulchre, complete, in_progress

FULL = {"skull": 1, "ribs": 1, "pelvis": 1, "arm": 2, "leg": 2}


def game(players=("ann", "bob", "cat", "dan"), **setup):
    return Sepulchre.start({"players": list(players), **setup})


def at(state, **graves):
    """Record graves without checks (the position a test starts from)."""
    return state.observe(graves, override="test position")


def sk(n=1, **extra):
    """n complete skeletons plus extra pieces."""
    out = {p: c * n for p, c in FULL.items()}
    for piece, k in extra.items():
        out[piece] += k
    return out


def test_counts_complete_and_in_progress():
    assert complete(sk(2, skull=1, arm=1)) == 2
    assert in_progress(sk(2, skull=1, arm=1)) == {"skull": 1, "ribs": 0, "pelvis": 0, "arm": 1, "leg": 0}


def test_ossuary_starts_with_the_whole_box():
    assert game().ossuary == {"skull": 12, "ribs": 12, "pelvis": 12, "arm": 24, "leg": 24}
    assert game(sets=8).ossuary["arm"] == 16
    assert game(alternate=True).ossuary["skull"] == 12 - 4


# -- Ossuary -> grave ---------------------------------------------------------------------------


def test_a_skull_starts_a_skeleton():
    s = game().observe({"ann": {"skull": 1}})
    assert s.graves["ann"]["skull"] == 1 and s.ossuary["skull"] == 11
    assert s.last_change == ("1 skull from the Ossuary to grave ann",)


def test_pieces_need_a_skull_first():
    with pytest.raises(IllegalPlay, match="skull first"):
        game().observe({"ann": {"arm": 1}})


def test_skull_and_pieces_together_are_fine():
    s = game().observe({"ann": {"skull": 1, "arm": 2, "ribs": 1}})
    assert s.graves["ann"] == {"skull": 1, "ribs": 1, "pelvis": 0, "arm": 2, "leg": 0}


def test_never_more_of_a_type_than_one_skeleton_needs():
    s = game().observe({"ann": {"skull": 1, "arm": 2}})
    with pytest.raises(IllegalPlay, match="one skeleton's worth"):
        s.observe({"ann": {"skull": 1, "arm": 3}})


def test_never_a_second_skeleton_in_progress():
    s = game().observe({"ann": {"skull": 1}})
    with pytest.raises(IllegalPlay, match="one skeleton in progress"):
        s.observe({"ann": {"skull": 2}})


def test_no_new_skeleton_on_the_turn_one_is_completed():
    s = at(game(), ann=sk(1, leg=-1))
    with pytest.raises(IllegalPlay, match="new skeleton"):
        s.observe({"ann": sk(1, skull=1)})  # completed and started in one go
    s = s.observe({"ann": sk(1)})
    with pytest.raises(IllegalPlay, match="new skeleton"):
        s.observe({"ann": sk(1, skull=1)})  # later the same turn
    s = s.next_turn()
    for _ in range(3):
        s = s.next_turn()
    assert s.player == "ann"
    s.observe({"ann": sk(1, skull=1)})  # a new turn: fine


# -- grave -> Ossuary (Decay) ---------------------------------------------------------------------


def test_decay_takes_a_piece_of_a_skeleton_in_progress():
    s = at(game(), bob={"skull": 1, "arm": 2})
    s = s.observe({"bob": {"skull": 1, "arm": 1}})
    assert s.ossuary["arm"] == 24 - 1 and s.last_change == ("1 arm from grave bob to the Ossuary",)


def test_decay_never_takes_a_skull():
    s = at(game(), bob={"skull": 1, "arm": 2})
    with pytest.raises(IllegalPlay, match="never takes a skull"):
        s.observe({"bob": {"skull": 0, "arm": 2}})


def test_decay_never_takes_from_a_complete_skeleton():
    s = at(game(), bob=sk(1))
    with pytest.raises(IllegalPlay, match="complete skeleton"):
        s.observe({"bob": sk(1, leg=-1)})


def test_one_card_against_each_opponent_per_turn():
    s = at(game(), bob={"skull": 1, "arm": 2, "leg": 2}, cat={"skull": 1, "leg": 1})
    s = s.observe({"bob": {"skull": 1, "arm": 1, "leg": 2}})
    with pytest.raises(IllegalPlay, match="one card per opponent"):
        s.observe({"bob": {"skull": 1, "arm": 1, "leg": 1}})
    s = s.observe({"cat": {"skull": 1}})  # another opponent: fine
    with pytest.raises(IllegalPlay, match="one card per opponent"):  # two pieces from one opponent at once
        at(game(), bob={"skull": 1, "arm": 2}).observe({"bob": {"skull": 1}})
    s = s.next_turn()  # bob's turn; ann's limits are gone
    assert s.against == frozenset()


# -- grave -> grave -------------------------------------------------------------------------------


def test_mad_scientist_takes_a_skull_from_a_complete_skeleton():
    s = at(game(), bob=sk(1))
    s = s.observe({"bob": sk(1, skull=-1), "ann": {"skull": 1}})
    assert s.last_change == ("1 skull from grave bob to grave ann",)


def test_mad_scientist_needs_a_complete_skeleton():
    s = at(game(), bob={"skull": 1, "arm": 1})
    with pytest.raises(IllegalPlay, match="Mad Scientist"):
        s.observe({"bob": {"skull": 0, "arm": 1}, "ann": {"skull": 1}})


def test_wild_animal_takes_an_arm_from_a_skeleton_in_progress():
    s = at(game(), bob={"skull": 1, "arm": 2}, ann={"skull": 1})
    s = s.observe({"bob": {"skull": 1, "arm": 1}, "ann": {"skull": 1, "arm": 1}})
    assert s.last_change == ("1 arm from grave bob to grave ann",)


def test_wild_animal_taker_grave_must_stay_legal():
    s = at(game(), bob={"skull": 1, "arm": 2})
    with pytest.raises(IllegalPlay, match="skull first"):
        s.observe({"bob": {"skull": 1, "arm": 1}, "ann": {"arm": 1}})


def test_wild_animal_never_from_a_complete_skeleton():
    s = at(game(), bob=sk(1), ann={"skull": 1})
    with pytest.raises(IllegalPlay, match="Wild Animal"):
        s.observe({"bob": sk(1, arm=-1), "ann": {"skull": 1, "arm": 1}})


def test_a_leg_lost_and_gained_in_one_look_is_a_decay_and_a_skeleton_card():
    # Seed: Decay Cards "return skeleton pieces to the Ossuary"; a skeleton card brings one
    # from it; only the type matters. Seen in one look, bob's leg to the Ossuary, ann's from it.
    s = at(game(), bob={"skull": 1, "leg": 1}, ann={"skull": 1})
    s = s.observe({"bob": {"skull": 1}, "ann": {"skull": 1, "leg": 1}})
    assert s.last_change == ("1 leg from the Ossuary to grave ann", "1 leg from grave bob to the Ossuary")
    assert s.view()["cards_left"] == 2  # the Decay counts against bob


def test_a_ribs_decayed_from_a_complete_skeleton_is_still_refused_in_one_look():
    s = at(game(), bob=sk(1), ann={"skull": 1})
    with pytest.raises(IllegalPlay, match="Decay never takes a piece of a complete skeleton"):
        s.observe({"bob": sk(1, ribs=-1), "ann": {"skull": 1, "ribs": 1}})


def test_own_pieces_never_go_back_to_the_ossuary():
    # Seed: Decay returns pieces "from an opponent's grave"; cards are played "for each
    # opposing player". No card sends the turn player's own pieces back.
    s = at(game(), ann={"skull": 1, "arm": 2})
    with pytest.raises(IllegalPlay, match="your own pieces"):
        s.observe({"ann": {"skull": 1, "arm": 1}})
    assert s.observe({"ann": {"skull": 1, "arm": 1}}, override="knocked off").graves["ann"]["arm"] == 1


def test_an_arm_from_the_turn_players_grave_to_another_is_a_haunt():
    # Seed: "Haunt must be played on an opposing player's turn": another player's Wild Animal,
    # turned by Haunt, can take the turn player's arm.
    s = at(game(), ann={"skull": 1, "arm": 1}, bob={"skull": 1})
    s = s.observe({"ann": {"skull": 1}, "bob": {"skull": 1, "arm": 1}})
    assert s.last_change == ("1 arm from grave ann to grave bob (Haunt: bob turned a Cemetery card on this turn)",)


# -- override, bad input, box -------------------------------------------------------------------


def test_an_override_is_recorded():
    s = game().observe({"ann": {"arm": 1}}, override="house rule")
    assert s.graves["ann"]["arm"] == 1
    assert s.overrides == ("house rule: grave ann: a skeleton starts with its skull (1 arm without a skull)",)


def test_more_pieces_than_the_box_is_a_miscount_not_a_play():
    # rules/sepulchre.md: "The Ossuary starts with every piece of the box": no more can be out.
    with pytest.raises(BadInput, match="5 skull pieces in the graves, more than the box holds"):
        game(sets=4).observe({"ann": {"skull": 5}})
    with pytest.raises(BadInput, match="than the box holds"):
        game(sets=4).observe({"ann": {"skull": 5}}, override="count it anyway")


@pytest.mark.parametrize(
    "graves, message",
    [
        ({"zed": {"skull": 1}}, "no grave called 'zed'"),
        ({"ann": {"tail": 1}}, "unknown piece 'tail'"),
        ({"ann": {"skull": -1}}, ">= 0"),
        ([], "JSON object"),
    ],
)
def test_bad_graves(graves, message):
    with pytest.raises(BadInput, match=message):
        game().observe(graves)


@pytest.mark.parametrize(
    "setup, message",
    [
        ({"players": ["a"]}, "2 to 4"),
        ({"players": ["a", "b", "c", "d", "e"]}, "2 to 4"),
        ({"players": ["a", "a"]}, "different"),
        ({"players": ["a", "b"], "sets": 13}, "sets"),
    ],
)
def test_bad_setups(setup, message):
    with pytest.raises(BadInput, match=message):
        Sepulchre.start(setup)


# -- whole games --------------------------------------------------------------------------------


def build_one_skeleton(s, name, base):
    """Lay one skeleton over several observations, skull first, as a player would across turns."""
    grave = dict(base)
    for piece in ("skull", "ribs", "pelvis", "arm", "arm", "leg", "leg"):
        grave = {**grave, piece: grave[piece] + 1}
        s = s.observe({name: grave})
    return s, grave


def test_a_four_player_game_to_a_win():
    s = game()
    graves = {p: {"skull": 0, "ribs": 0, "pelvis": 0, "arm": 0, "leg": 0} for p in s.players}
    for round_ in range(3):
        for _ in s.players:
            name = s.player
            if name in ("ann", "bob") or round_ == 0:
                s, graves[name] = build_one_skeleton(s, name, graves[name])
            if s.over:
                break
            s = s.next_turn()
        if s.over:
            break
    assert s.winner == "ann" and complete(s.graves["ann"]) == 3 and s.over
    with pytest.raises(IllegalPlay, match="game is over"):
        s.next_turn()


def test_empty_the_ossuary_long_play_goes_on_with_fewer_cards():
    s = at(game(long_play=True), ann=sk(2, skull=1, ribs=1, pelvis=1, arm=2, leg=1), cat={"skull": 1, "arm": 1})
    assert s.card_limit == 3
    s = s.observe({"ann": sk(3)})
    assert s.winner == "ann" and not s.over
    s = s.next_turn()
    assert s.player == "bob" and s.card_limit == 2  # ann is out: one card fewer
    _, flags = s.check({**s.graves, "ann": sk(3, leg=-1)})
    assert "long play" in {f.rule for f in flags}
    s = s.next_turn().next_turn().next_turn()
    assert s.player == "bob"  # cat, dan, then ann is skipped
