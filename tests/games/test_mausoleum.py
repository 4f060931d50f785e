"""Mausoleum through the Table: whole games for 2 and 5, each rule as a position, and cards conserved."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.card_lists import packaged_cards
from companion.cli import main
from companion.errors import BadInput, IllegalPlay
from companion.games.mausoleum import Mausoleum, cards_from_json, from_position, to_position
from companion.games.mausoleum.rules import MausoleumRules
from companion.store import EventStore
from companion.table import Table

CARDS = cards_from_json(packaged_cards())


def conserved(game: Mausoleum) -> None:
    """Every card 1-54 in exactly one place, and the deck plus unseen hand cards are the unseen cards."""
    places = game.places()
    every = [n for cards in places.values() for n in cards]
    assert sorted(every) == list(range(1, 55))
    assert game.deck + sum(s.hand - len(s.known) for s in game.seats) == len(places["unseen"])
    assert game.deck >= 0 and all(len(s.party) <= 4 and len(s.morgue) <= 4 for s in game.seats)


class Hands:
    """The real cards behind the players' hands and in the deck: what the test knows and the table does not."""

    def __init__(self, players: int, rng: random.Random) -> None:
        self.rng = rng
        self.deck = [n for n in range(1, 55) if not 37 <= n <= 45]
        rng.shuffle(self.deck)
        dealt = {2: 5, 3: 5, 4: 4, 5: 3}[players]
        self.hands = [[self.deck.pop() for _ in range(dealt)] for _ in range(players)]


def take_a_turn(table: Table, hands: Hands) -> None:
    view = table.view()
    me = view["current"]
    seat = table.state.seats[me]
    # Buy and Bury when the morgue pays for a grave in the shop: the dearest it can
    worth = sum(table.state.cards[h].value or 0 for h in seat.morgue)
    affordable = [g for g in table.state.shop if (table.state.cards[g].value or 0) <= worth]
    if affordable and seat.morgue:
        grave = max(affordable, key=lambda g: table.state.cards[g].value)
        table.dispatch({"type": "buy", "grave": grave, "heirs": list(seat.morgue)})
    else:
        if hands.deck:
            table.dispatch({"type": "draw", "from": "deck"})
            hands.hands[me].append(hands.deck.pop())
        else:
            table.dispatch({"type": "draw", "from": "discard"})
            hands.hands[me].append(table.state.seats[me].known[-1])
        hand = hands.hands[me]
        state = table.state
        heirs = [c for c in hand if c <= 18]
        accidents = [c for c in hand if 19 <= c <= 36]
        mine = state.seats[me].party
        if accidents and mine:
            card = accidents[0]
            table.dispatch({"type": "play", "card": card, "heir": mine[0]})
        elif heirs and len(mine) < 4:
            card = heirs[0]
            table.dispatch({"type": "play", "card": card})
        elif heirs:
            card = heirs[0]
            other = next((s.name for s in state.seats if len(s.party) < 4), None)
            if other is None:
                table.dispatch({"type": "discard", "card": card})
            else:
                table.dispatch({"type": "play", "card": card, "to": other})
        else:
            card = hand[0]
            table.dispatch({"type": "discard", "card": card})
        hand.remove(card)
    before = table.state.deck
    table.dispatch({"type": "next_turn"})
    if before == 0 and not table.state.over:  # the discard pile became the deck: shuffle it for real
        hands.deck = [n for n in table.state.unseen() if not any(n in h for h in hands.hands)]
        hands.rng.shuffle(hands.deck)
    conserved(table.state)


@pytest.fixture
def store(tmp_path):
    with EventStore(tmp_path / "table.sqlite3") as store:
        yield store


@pytest.mark.parametrize("players", [2, 5])
@pytest.mark.parametrize("seed", range(3))
def test_a_whole_game_ends_with_a_ten_million_mausoleum(store, players, seed) -> None:
    table = Table(store, {"mausoleum": MausoleumRules()}, rng=random.Random(seed))
    names = ["Ann", "Bob", "Cat", "Dan", "Eve"][:players]
    table.new_game("mausoleum", {"players": names, "cards": packaged_cards()})
    hands = Hands(players, random.Random(seed))
    for _ in range(2000):
        if table.view()["over"]:
            break
        take_a_turn(table, hands)
    view = table.view()
    assert view["over"], "no winner in 2000 turns"
    winner = next(p for p in view["players"] if p["name"] == view["winner"])
    assert winner["mausoleum_total"] >= 10
    again = Table(store, {"mausoleum": MausoleumRules()})
    assert again.resume() and again.view() == view  # a restart replays the log to the same table


def start(n: int = 3) -> Mausoleum:
    return Mausoleum.start(["Ann", "Bob", "Cat", "Dan", "Eve"][:n], CARDS)


def position(**change) -> Mausoleum:
    """A position from its public piles and hand sizes; the deck is what is left unless given."""
    base = {
        "players": [{"name": "Ann", "hand": 5}, {"name": "Bob", "hand": 5}],
        "shop": list(range(37, 46)),
        "discard": [],
    }
    base.update(change)
    if "deck" not in base:
        placed = len(base["shop"]) + len(base["discard"])
        placed += sum(
            len(p.get(k, [])) for p in base["players"] for k in ("party", "morgue", "mausoleum", "known", "kept")
        )
        base["deck"] = 54 - placed - sum(p["hand"] - len(p.get("known", [])) for p in base["players"])
    return from_position(base, CARDS)


@pytest.mark.parametrize(("players", "dealt", "deck"), [(2, 5, 35), (3, 5, 30), (4, 4, 29), (5, 3, 30)])
def test_setup_deals_by_the_number_of_players_and_opens_the_shop(players, dealt, deck) -> None:
    game = start(players)
    assert all(s.hand == dealt for s in game.seats) and game.deck == deck and game.shop == tuple(range(37, 46))
    conserved(game)


def test_a_fifth_heir_is_refused() -> None:
    game = position(players=[{"name": "Ann", "hand": 5}, {"name": "Bob", "hand": 1, "party": [1, 2, 3, 4]}])
    game = game.draw("deck")
    with pytest.raises(IllegalPlay, match="Bob's party has 4 heirs already"):
        game.play(5, to="Bob")


def test_an_accident_offs_an_heir_into_its_owners_morgue_and_a_fifth_is_discarded() -> None:
    game = position(
        players=[{"name": "Ann", "hand": 5}, {"name": "Bob", "hand": 5, "party": [1], "morgue": [2, 3, 4, 5]}]
    )
    game = game.draw("deck").play(19, heir=1)
    assert game.seats[1].morgue == (2, 3, 4, 5) and game.discard == (19, 1)  # the accident, then the heir
    game = position(players=[{"name": "Ann", "hand": 5, "party": [6]}, {"name": "Bob", "hand": 5}])
    game = game.draw("deck").play(20, heir=6)
    assert game.seats[0].morgue == (6,) and game.seats[0].party == () and game.discard == (20,)


def test_an_accident_needs_an_heir_at_a_party() -> None:
    with pytest.raises(IllegalPlay, match="at no party"):
        start().draw("deck").play(19, heir=3)


def test_a_card_played_must_be_one_the_hand_could_hold() -> None:
    game = position(players=[{"name": "Ann", "hand": 5}, {"name": "Bob", "hand": 5, "party": [1]}])
    with pytest.raises(IllegalPlay, match="draws first"):
        game.play(2)
    with pytest.raises(IllegalPlay, match="not in Ann's hand \\(it is in Bob's party\\)"):
        game.draw("deck").play(1)
    with pytest.raises(IllegalPlay, match="not in Ann's hand \\(it is in the shop\\)"):
        game.draw("deck").play(37)


def test_drawing_from_the_discard_pile_takes_its_top_card_into_view() -> None:
    game = position(discard=[7, 8]).draw("discard")
    assert game.seats[0].known == (8,) and game.discard == (7,) and game.seats[0].hand == 6
    game = game.play(8)
    assert game.seats[0].party == (8,) and game.seats[0].known == ()


def test_buy_and_bury_spends_morgue_heirs_on_one_grave_a_turn() -> None:
    ann = {"name": "Ann", "hand": 5, "morgue": [9, 5, 1]}  # provisional values: $5m, $4m, $3m
    game = position(players=[ann, {"name": "Bob", "hand": 5}])
    with pytest.raises(IllegalPlay, match="too dear: those heirs are worth \\$3m, #45 Grave 9 costs \\$7m"):
        game.buy(45, [1])
    game = game.buy(45, [9, 5])
    assert game.seats[0].mausoleum == (45,) and game.seats[0].morgue == (1,) and 45 not in game.shop
    assert game.discard == (9, 5)
    with pytest.raises(IllegalPlay, match="one a turn"):
        game.buy(37, [1])
    with pytest.raises(IllegalPlay, match="bought a grave this turn"):
        game.draw("deck")
    with pytest.raises(IllegalPlay, match="not in Ann's morgue"):
        position(players=[ann, {"name": "Bob", "hand": 5, "morgue": [2]}]).buy(37, [2])
    with pytest.raises(IllegalPlay, match="instead of Draw and Play"):
        position(players=[ann, {"name": "Bob", "hand": 5}]).draw("deck").buy(37, [1])


def test_ten_million_at_the_end_of_ones_turn_wins() -> None:
    ann = {"name": "Ann", "hand": 5, "morgue": [9], "mausoleum": [44]}  # $6m grave, then the $4m one
    game = position(players=[ann, {"name": "Bob", "hand": 5}], shop=[37, 38, 39, 40, 41, 42, 43, 45])
    game = game.buy(40, [9])
    assert not game.over
    game = game.end_turn()
    assert game.winner == "Ann" and game.over
    with pytest.raises(IllegalPlay, match="over"):
        game.draw("deck")


def test_an_empty_deck_is_the_discard_pile_reshuffled_at_the_end_of_a_turn() -> None:
    game = position(players=[{"name": "Ann", "hand": 31}, {"name": "Bob", "hand": 10}], discard=[19, 20, 21])
    assert game.deck == 1
    game = game.draw("deck").throw_away(22)
    assert game.deck == 0 and game.discard == (19, 20, 21, 22)
    game = game.end_turn()
    assert game.deck == 4 and game.discard == () and game.seat.name == "Bob"
    conserved(game)


def test_the_turn_ends_only_when_its_play_is_done() -> None:
    with pytest.raises(IllegalPlay, match="draw and play, or buy and bury"):
        start().end_turn()
    with pytest.raises(IllegalPlay, match="play or discard a card"):
        start().draw("deck").end_turn()
    with pytest.raises(IllegalPlay, match="played this turn already"):
        start().draw("deck").throw_away(1).play(2)


def test_an_incident_is_recorded_by_what_it_moves() -> None:
    game = position(players=[{"name": "Ann", "hand": 5, "party": [1]}, {"name": "Bob", "hand": 5, "party": [2]}])
    game = game.draw("deck").play(46, moves=[{"card": 2, "to": "party:Ann"}, {"card": 1, "to": "morgue:Bob"}])
    assert game.seats[0].party == (2,) and game.seats[1].morgue == (1,) and game.discard == (46,)
    kept = position().draw("deck").play(47, keep=True)
    assert kept.seats[0].kept == (47,)
    with pytest.raises(IllegalPlay, match="a party holds heirs"):
        position().draw("deck").play(46, moves=[{"card": 37, "to": "party:Ann"}])
    with pytest.raises(IllegalPlay, match="only cards on the table"):
        position().draw("deck").play(46, moves=[{"card": 3, "to": "discard"}])


def test_a_card_corrected_changes_the_totals() -> None:
    game = position(players=[{"name": "Ann", "hand": 5, "morgue": [1]}, {"name": "Bob", "hand": 5}])
    game = game.correct(1, value=8, name="Loving Grandfather")
    assert game.worth((1,)) == 8 and game.cards[1].checked and game.cards[1].name == "Loving Grandfather"
    with pytest.raises(BadInput, match="only heirs and graves have values"):
        game.correct(19, value=3)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 5), st.lists(st.integers(0, 10**6), min_size=1, max_size=80))
def test_cards_are_conserved_whatever_is_entered(players: int, choices: list[int]) -> None:
    """Random entries, legal or not: a refused one changes nothing, and every card stays in one place."""
    game = start(players)
    for choice in choices:
        rng = random.Random(choice)
        seat = game.seat
        kind = rng.choice(["draw", "play", "discard", "buy", "end", "incident"])
        try:
            if kind == "draw":
                game = game.draw(rng.choice(["deck", "discard"]))
            elif kind == "play":
                game = game.play(
                    rng.randint(1, 54), to=rng.choice([None, *[s.name for s in game.seats]]), heir=rng.randint(1, 18)
                )
            elif kind == "discard":
                game = game.throw_away(rng.randint(1, 54))
            elif kind == "buy":
                game = game.buy(rng.randint(37, 45), rng.sample(list(seat.morgue), k=len(seat.morgue)) or [1])
            elif kind == "incident":
                target = rng.choice(
                    [
                        "discard",
                        "shop",
                        *[f"{p}:{s.name}" for p in ("party", "morgue", "mausoleum", "hand") for s in game.seats],
                    ]
                )
                game = game.play(rng.randint(46, 54), moves=[{"card": rng.randint(1, 54), "to": target}])
            else:
                game = game.end_turn()
        except (IllegalPlay, BadInput):
            pass
        conserved(game)


def test_check_reads_a_position_and_says_it_in_one_line(tmp_path, capsys) -> None:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(to_position(start(4).draw("deck").play(1))))
    assert main(["mausoleum", "check", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ok: Ann $0m") and "deck 28" in out


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"deck": 30}, "do not add up"),
        ({"shop": list(range(37, 45))}, "grave #45 is nowhere"),
        ({"shop": list(range(37, 46)), "discard": [37]}, "in the shop and in the discard pile"),
        ({"players": [{"name": "Ann", "hand": 5, "party": [19]}, {"name": "Bob", "hand": 5}]}, "holds heirs, not #19"),
        ({"players": [{"name": "Ann", "hand": 0, "party": [1, 2, 3, 4, 5]}, {"name": "Bob", "hand": 5}]}, "at most 4"),
        ({"players": [{"name": "Ann"}]}, "2 to 5 players"),
        ({"cheat": 1}, "unknown key 'cheat'"),
        ({"players": [{"name": "Ann", "hand": 5, "wallet": 3}, {"name": "Bob", "hand": 5}]}, "unknown key 'wallet'"),
    ],
)
def test_check_refuses_a_bad_position_in_one_line(tmp_path, capsys, change, said) -> None:
    base = {
        "players": [{"name": "Ann", "hand": 5}, {"name": "Bob", "hand": 5}],
        "shop": list(range(37, 46)),
        "deck": 35,
    }
    base.update(change)
    path = tmp_path / "position.json"
    path.write_text(json.dumps(base))
    assert main(["mausoleum", "check", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err
