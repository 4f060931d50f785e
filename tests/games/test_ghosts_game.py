"""Ghosts in the Graveyard through the Table: whole games by the rules, and each rule as a position."""

from __future__ import annotations

import random

import pytest

from companion.errors import BadInput, IllegalPlay
from companion.games.ghosts.advice import advice
from companion.games.ghosts.deduce import deduce
from companion.games.ghosts.game import Ghosts
from companion.games.ghosts.rules import GhostsRules
from companion.store import EventStore
from companion.table import Table


class Seat:
    """A player's cards behind their shield: what the test knows and the companion never does."""

    def __init__(self, haunt: int, decoys: list[int], hand: list[int]) -> None:
        self.haunt, self.decoys, self.hand = haunt, list(decoys), list(hand)

    @property
    def secrets(self) -> set[int]:
        return {self.haunt, *self.decoys}


def play_a_whole_game(table: Table, names: list[str], seed: int) -> tuple[str, list[Seat]]:
    """Deal, then every turn the player takes the companion's advice; every answer is truthful."""
    rng = random.Random(seed)
    deck = list(range(1, 51))
    rng.shuffle(deck)
    seats = []
    for _ in names:
        cards, deck = deck[:5], deck[5:]
        seats.append(Seat(cards[0], cards[1:3], cards[3:]))
    first, deck = deck[: len(names)], deck[len(names) :]
    table.new_game("ghosts", {"players": names, "first_cards": first})
    for _ in range(200):
        view = table.view()
        if view["over"]:
            return view["winner"], seats
        me, them = view["current"], (view["current"] + 1) % len(names)
        mine, theirs = seats[me], seats[them]
        card = None if not deck else deck[0]
        tip = advice(table.state, me, over=card, hand=frozenset(mine.hand))
        if tip["advice"] == "guess" or card is None:
            guess = tip["guess"]["tombstone"]
            command = {"type": "guess", "tombstone": guess}
            if guess == theirs.haunt:
                command["answer"] = "haunt"
            elif guess in theirs.decoys:
                command["answer"] = "decoy"
                theirs.decoys.remove(guess)
            else:
                command["answer"] = "no"
                if mine.decoys:
                    command["reveal"] = mine.decoys.pop()
                else:
                    command["discard"] = mine.hand
            table.dispatch(command)
            continue
        deck.pop(0)  # drawn, and played at once: the advice was worked out for this card
        best = tip["searches"][0]
        command = {"type": "search", "played": card, "answer": bool(theirs.secrets & set(best["asked"]))}
        if best["light"].startswith("flood"):
            command.update(light="flood", direction=best["light"].split()[1])
        else:
            command.update(light=best["light"], turn=best["turn"], origin=best["origin"])
        table.dispatch(command)
        for seat in range(len(names)):  # what everyone heard never rules out a true secret
            held = seats[(seat + 1) % len(names)].secrets
            chances = deduce(table.state.knowledge(seat)).secret
            assert all(chances.get(t, 0) > 0 for t in held)
    raise AssertionError("no winner in 200 turns")


@pytest.fixture
def store(tmp_path):
    with EventStore(tmp_path / "table.sqlite3") as store:
        yield store


@pytest.fixture
def table(store):
    return Table(store, {"ghosts": GhostsRules()}, rng=random.Random(1))


@pytest.mark.parametrize("names", [["ann", "bob"], ["ann", "bob", "cat", "dan"]])
@pytest.mark.parametrize("seed", range(3))
def test_a_whole_game_ends_with_a_haunt_found_or_a_last_wrong_guess(table, store, names, seed) -> None:
    winner, seats = play_a_whole_game(table, names, seed)
    view = table.view()
    assert view["over"] and winner in names
    # a restart replays the log to the same board
    again = Table(store, {"ghosts": GhostsRules()})
    assert again.resume()
    assert again.view()["board"] == view["board"] and again.view()["winner"] == winner


def start(n: int = 2, **setup) -> Ghosts:
    return Ghosts.start({"players": ["ann", "bob", "cat", "dan"][:n], **setup})


def test_the_highest_first_card_starts_and_every_first_card_is_crossed() -> None:
    game = start(3, first_cards=[12, 40, 7])
    assert game.player.name == "bob" and game.crossed == {12, 40, 7}


def test_a_decoy_found_is_crossed_and_the_guesser_goes_again() -> None:
    game = start().guess(17, "decoy")
    assert game.player.name == "ann" and 17 in game.crossed and game.players[1].revealed == (17,)


def test_the_haunt_found_wins() -> None:
    game = start().guess(17, "haunt")
    assert game.over and game.winner == "ann"
    with pytest.raises(IllegalPlay, match="over"):
        game.guess(18, "no", reveal=3)


def test_a_wrong_guess_costs_a_secret_unless_the_raven_flies() -> None:
    with pytest.raises(BadInput, match="reveals one of their secrets"):
        start().guess(17, "no")
    game = start().guess(17, "no", reveal=4)
    assert game.players[0].revealed == (4,) and game.player.name == "bob"
    raven = start().guess(17, "no", raven=True)
    assert raven.players[0].revealed == () and raven.players[0].raven and raven.player.name == "bob"
    with pytest.raises(IllegalPlay, match="Raven already"):
        raven.guess(30, "no", raven=True, reveal=5).guess(31, "no", raven=True)


def test_only_the_haunt_left_and_wrong_loses_with_two_and_sits_out_with_more() -> None:
    two = start().guess(1, "no", reveal=2).guess(3, "no", reveal=4).guess(5, "no", reveal=6)
    assert two.players[0].revealed == (2, 6) and not two.over  # each wrong guess cost its guesser a secret
    two = two.guess(7, "no", reveal=8).guess(9, "no")
    assert two.over and two.winner == "bob"
    four = start(4)
    four = four._with(0, revealed=(2, 4)).guess(5, "no", discard=[8, 9])
    assert four.players[0].out and {8, 9} <= four.crossed and four.player.name == "bob"
    # ann takes no more turns but still answers dan, who asks her
    four = four.vanish().search(20, "flood", False, "E").search(21, "flood", False, "E").search(22, "flood", True, "E")
    assert four.player.name == "bob"
    assert four.knowledge(3).events[-1].answer is True


def test_a_decoy_cannot_be_the_last_secret() -> None:
    game = start().guess(10, "decoy").guess(11, "decoy")
    with pytest.raises(IllegalPlay, match="only the haunt left"):
        game.guess(12, "decoy")


def test_crossed_tombstones_cannot_be_guessed_or_played() -> None:
    game = start(first_cards=[12, 40])
    with pytest.raises(IllegalPlay, match="crossed out"):
        game.guess(12, "no", reveal=3)
    with pytest.raises(IllegalPlay, match="crossed out"):
        game.search(40, "flood", True, "N")


def test_vanish_is_once_a_game() -> None:
    game = start().vanish()
    assert game.players[0].vanish
    with pytest.raises(IllegalPlay, match="Vanish already"):
        game.vanish()


def test_a_search_crosses_the_card_and_records_the_light() -> None:
    game = start().search(23, "flood", True, "W")
    assert 23 in game.crossed and game.player.name == "bob"
    assert game.said[-1]["asked"] == [1, 2, 11, 12, 21, 22, 31, 32, 41, 42]


def test_a_flashlight_lies_only_over_the_card_played() -> None:
    game = start()
    laid = game.placements(48, "lantern")
    match = next(p for p in laid if p.area == {28, 29, 30, 38, 39, 48})
    after = game.search(48, "lantern", False, turn=match.turn, origin=list(match.origin))
    assert after.said[-1]["asked"] == [28, 29, 30, 38, 39, 48]
    with pytest.raises(IllegalPlay, match="cannot lie that way"):
        game.search(48, "lantern", False, turn=0, origin=[0, 0])


def test_another_players_flashlight_costs_a_hand_and_there_are_two() -> None:
    game = start(
        flashlights={"bar": [[0, 0], [0, 1], [0, 2]]}, players=[{"name": "ann"}, {"name": "bob", "flashlight": "bar"}]
    )
    spot = game.placements(5, "bar")[0]
    game = game.search(5, "bar", False, turn=spot.turn, origin=list(spot.origin))
    assert game.players[0].hands == 1
    game = game.search(30, "flood", False, "N")  # bob
    spot = game.placements(45, "bar")[0]
    game = game.search(45, "bar", False, turn=spot.turn, origin=list(spot.origin)).search(31, "flood", False, "N")
    assert game.players[0].hands == 2 and game.lights_for(0) == ["lantern"]
    spot = game.placements(25, "bar")[0]
    with pytest.raises(IllegalPlay, match="no Hand left"):
        game.search(25, "bar", False, turn=spot.turn, origin=list(spot.origin))


def test_an_answer_that_contradicts_earlier_ones_is_refused(table) -> None:
    table.new_game("ghosts", {"players": ["ann", "bob"]})
    table.dispatch({"type": "search", "played": 23, "light": "flood", "direction": "W", "answer": False})
    table.dispatch({"type": "search", "played": 24, "light": "flood", "direction": "E", "answer": False})
    # bob said "no" to the first two columns; 33's Flood Light West asks the same columns
    with pytest.raises(IllegalPlay, match="bob's answer contradicts"):
        table.dispatch({"type": "search", "played": 33, "light": "flood", "direction": "W", "answer": True})
    assert table.view()["said"] == 2 and 33 not in table.state.crossed


@pytest.mark.parametrize(
    ("setup", "said"),
    [
        ({"players": ["ann"]}, "2 to 4 players"),
        ({"players": ["ann", "ann"]}, "differ"),
        ({"players": ["ann", "bob"], "first_cards": [3]}, "one card a player"),
        ({"players": ["ann", "bob"], "first_cards": [3, 3]}, "different"),
        ({"players": [{"name": "ann", "flashlight": "torch"}, "bob"]}, "no flashlight called 'torch'"),
        ({"players": ["ann", "bob"], "flashlights": {"x": [[0, 0], [9, 9]]}}, "fit in 5x5"),
    ],
)
def test_bad_setups_are_one_line_errors(setup, said) -> None:
    with pytest.raises(BadInput, match=said):
        Ghosts.start(setup)


def test_undo_takes_back_the_last_entry(table) -> None:
    table.new_game("ghosts", {"players": ["ann", "bob"]})
    table.dispatch({"type": "guess", "tombstone": 17, "answer": "no", "reveal": 4})
    table.dispatch({"type": "search", "played": 23, "light": "flood", "direction": "W", "answer": True})
    table.undo()
    assert table.state.player.name == "bob" and 23 not in table.state.crossed and len(table.state.said) == 2
    table.undo()
    assert table.state.player.name == "ann" and table.state.players[0].revealed == () and not table.state.said


def test_a_table_enters_its_own_flashlight_and_gives_it_to_a_player(table) -> None:
    table.new_game("ghosts", {"players": ["ann", "bob"]})
    table.dispatch({"type": "flashlight", "name": "Candle", "cells": [[0, 0], [1, 0], [1, 1]], "player": "bob"})
    assert table.state.players[1].flashlight == "candle" and table.view()["flashlights"]["candle"] == [
        [0, 0],
        [1, 0],
        [1, 1],
    ]
    assert table.view()["lights"] == ["flood", "lantern", "candle"]  # ann may borrow it with a Hand
    with pytest.raises(BadInput, match="open square"):
        table.dispatch({"type": "flashlight", "name": "bad", "cells": [[0]]})
