"""The deduction helper against a brute-force count, and the board's lights (rules/ghosts-in-the-graveyard.md)."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.errors import BadInput
from companion.games.ghosts import LANTERN, Flashlight, Knowledge, deduce, flood

RULES_EXAMPLE = {
    "crossed": [5, 12, 23, 48],
    "hand": [7, 31],
    "events": [
        {"asked": [1, 2, 11, 12, 21, 22, 31, 32, 41, 42], "answer": True},
        {"guess": 17, "answer": "no"},
        {"guess": 9, "answer": "decoy"},
        {"asked": [28, 29, 30, 38, 39], "answer": False},
        {"revealed": 33},
    ],
}


def brute_force(state: dict) -> tuple[int, dict[int, Fraction], dict[int, Fraction]]:
    """Count with sets and fractions, one event at a time: the rules page read literally."""
    ruled_out = set(state.get("crossed", [])) | set(state.get("hand", []))
    fits = []
    for secrets in combinations(range(1, 51), 3):
        if ruled_out & set(secrets):
            continue
        held, ok = set(secrets), True
        for e in state.get("events", []):
            if "asked" in e:
                ok = ok and bool(held & set(e["asked"])) == e["answer"]
            elif "guess" in e and e["answer"] == "no":
                ok = ok and e["guess"] not in held
            else:
                number = e.get("revealed", e.get("guess"))
                ok = ok and number in held
                held.discard(number)
        if ok:
            fits.append(held)
    secret: dict[int, Fraction] = {}
    haunt: dict[int, Fraction] = {}
    for held in fits:
        for t in held:
            secret[t] = secret.get(t, 0) + Fraction(1, len(fits))
            haunt[t] = haunt.get(t, 0) + Fraction(1, len(fits) * len(held))
    return len(fits), secret, haunt


def random_game(rng: random.Random, steps: int) -> tuple[dict, set[int]]:
    """A truthful game's worth of what the asker heard, and the opponent's true held secrets."""
    deck = list(range(1, 51))
    rng.shuffle(deck)
    secrets, hand, crossed = set(deck[:3]), deck[3:5], deck[5 : 5 + rng.randrange(0, 12)]
    held, events = set(secrets), []
    for _ in range(steps):
        kind = rng.random()
        if kind < 0.6:
            over = rng.choice(range(1, 51))
            area = (
                flood(over, rng.choice("NESW"))
                if rng.random() < 0.5
                else rng.choice(Flashlight("lantern", LANTERN).placements(over)).area
            )
            events.append({"asked": sorted(area), "answer": bool(held & area)})
        elif kind < 0.85 or len(held) == 1:
            guess = rng.choice([t for t in range(1, 51) if t not in held and t not in hand])
            events.append({"guess": guess, "answer": "no"})
        else:
            decoy = rng.choice(sorted(held))
            held.discard(decoy)
            events.append({"guess": decoy, "answer": "decoy"} if rng.random() < 0.5 else {"revealed": decoy})
    return {"crossed": crossed, "hand": hand, "events": events}, held


def test_the_rules_page_example_leaves_eight_places_for_the_haunt() -> None:
    deduction = deduce(Knowledge.from_json(RULES_EXAMPLE))
    # 9 and 33 revealed; the first light said yes while neither was under it, so the haunt was
    assert deduction.held == 1
    assert sorted(deduction.haunt) == [1, 2, 11, 21, 22, 32, 41, 42]
    assert deduction.to_json()["best_guess"] == {"tombstone": 1, "haunt": 0.125}


@pytest.mark.parametrize("seed", range(12))
def test_chances_match_a_brute_force_count_on_random_games(seed: int) -> None:
    state, _ = random_game(random.Random(seed), steps=random.Random(seed).randrange(1, 9))
    consistent, secret, haunt = brute_force(state)
    deduction = deduce(Knowledge.from_json(state))
    assert deduction.consistent == consistent
    assert deduction.secret == pytest.approx({t: float(p) for t, p in secret.items()}, abs=1e-12)
    assert deduction.haunt == pytest.approx({t: float(p) for t, p in haunt.items()}, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 14))
def test_the_true_secrets_always_keep_a_chance(seed: int, steps: int) -> None:
    state, held = random_game(random.Random(seed), steps)
    deduction = deduce(Knowledge.from_json(state))
    assert all(deduction.secret[t] > 0 and deduction.haunt[t] > 0 for t in held)
    assert deduction.held == len(held)
    assert sum(deduction.secret.values()) == pytest.approx(len(held))
    assert sum(deduction.haunt.values()) == pytest.approx(1)


def test_a_light_answered_with_a_revealed_secret_under_it_counts_only_the_held_ones() -> None:
    # 10 was revealed before the light; "no" over 10 and 20 still allows 10 as an original secret
    state = {"events": [{"revealed": 10}, {"asked": [10, 20], "answer": False}]}
    consistent, _, _ = brute_force(state)
    deduction = deduce(Knowledge.from_json(state))
    assert deduction.consistent == consistent == 48 * 47 // 2
    assert 20 not in deduction.secret and 10 not in deduction.secret


@pytest.mark.parametrize(
    ("state", "said"),
    [
        ({"events": [{"asked": [1], "answer": True}, {"asked": [1], "answer": False}]}, "contradict"),
        ({"crossed": [51]}, "1-50"),
        ({"hand": [0]}, "1-50"),
        ({"hand": [7], "events": [{"revealed": 7}]}, "in the asker's hand"),
        ({"crossed": [7], "events": [{"guess": 7, "answer": "decoy"}]}, "crossed"),
        ({"events": [{"revealed": 7}, {"revealed": 7}]}, "revealed already"),
        ({"events": [{"revealed": 1}, {"revealed": 2}, {"revealed": 3}]}, "haunt is never revealed"),
        ({"crossed": [], "seen": []}, "unknown key 'seen'"),
        ({"events": [{"asked": [1], "answer": True, "by": "ann"}]}, "unknown key 'by'"),
        ({"events": [{"guess": 4, "answer": "yes"}]}, '"no" or "decoy"'),
        ({"events": [{"asked": [1], "answer": "yes"}]}, "true or false"),
        ([1, 2], "JSON object"),
    ],
)
def test_impossible_states_are_one_line_errors(state: object, said: str) -> None:
    with pytest.raises(BadInput, match=said):
        deduce(Knowledge.from_json(state))


def test_the_cli_prints_the_contract(tmp_path, capsys) -> None:
    path = tmp_path / "state.json"
    path.write_text(json.dumps(RULES_EXAMPLE))
    assert main(["ghosts", "deduce", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"consistent", "held", "secret", "haunt", "best_guess", "ms"}
    assert out["consistent"] == 8 and out["held"] == 1
    assert out["secret"]["32"] == 0.125 and "33" not in out["secret"]
    assert out["best_guess"] == {"tombstone": 1, "haunt": 0.125}


def test_the_cli_refuses_contradictions_in_one_line(tmp_path, capsys) -> None:
    path = tmp_path / "state.json"
    path.write_text(json.dumps({"events": [{"asked": [1, 2], "answer": True}, {"asked": [1, 2], "answer": False}]}))
    assert main(["ghosts", "deduce", str(path), "--json"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "contradict" in err


def test_the_flood_light_from_23_pointed_west_asks_the_first_two_columns() -> None:
    assert flood(23, "W") == {1, 2, 11, 12, 21, 22, 31, 32, 41, 42}
    assert flood(23, "N") == set(range(1, 11)) | set(range(11, 21))
    assert flood(23, "E") == {n for n in range(1, 51) if (n - 1) % 10 > 2}
    assert flood(45, "S") == set()


def test_the_lantern_over_48_can_ask_the_rules_example() -> None:
    areas = [p.area for p in Flashlight("lantern", LANTERN).placements(48)]
    assert frozenset({28, 29, 30, 38, 39, 48}) in areas
    assert all(48 in area for area in areas)


def test_a_flashlight_turns_but_is_never_mirrored() -> None:
    ell = Flashlight.from_json("ell", [[0, 0], [1, 0], [2, 0], [2, 1]])
    turns = set(ell.turns())
    assert len(turns) == 4
    mirrored = ((0, 1), (1, 1), (2, 0), (2, 1))
    assert mirrored not in turns
    square = Flashlight.from_json("square", [[0, 0], [0, 1], [1, 0], [1, 1]])
    assert len(square.turns()) == 1


def test_a_search_that_splits_the_chances_tells_the_most() -> None:
    deduction = deduce(Knowledge.from_json({}))
    half = deduction.information(range(1, 11))  # one row of ten: yes about 1 - C(40,3)/C(50,3) = 0.50
    assert 0.99 < half <= 1.0
    assert deduction.information([]) == 0.0
