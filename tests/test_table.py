"""The Table and the event log: every action an event, replay gives the same state, undo is an event."""

import random
import threading

import pytest

from companion.errors import BadInput, IllegalPlay, StoreError
from companion.games.rolling_bones.dice import FACE_IDS
from companion.games.rolling_bones.rules import RollingBonesRules
from companion.store import EventStore, effective_actions
from companion.table import Table

PERFECT = list(FACE_IDS)  # every face once: a perfect skeleton, the hat and a gravestone


@pytest.fixture
def store(tmp_path):
    with EventStore(tmp_path / "table.sqlite3") as s:
        yield s


@pytest.fixture
def table(store):
    t = Table(store, {"rolling-bones": RollingBonesRules()}, rng=random.Random(1))
    t.new_game("rolling-bones", {"players": ["ann", "bob"]})
    return t


def play_some(table):
    table.dispatch({"type": "roll", "faces": PERFECT})
    for face in ["skull", "ribcage", "spine"]:
        table.dispatch({"type": "lay", "face": face})


def test_every_accepted_command_is_an_event(table, store):
    play_some(table)
    kinds = [e.kind for e in store.events(table.view()["session"])]
    assert kinds == ["roll", "lay", "lay", "lay"]


def test_refused_commands_write_nothing(table, store):
    with pytest.raises(IllegalPlay):
        table.dispatch({"type": "bury"})
    with pytest.raises(BadInput):
        table.dispatch({"type": "dance"})
    with pytest.raises(BadInput):
        table.dispatch("roll")
    assert store.events(table.view()["session"]) == []


def test_replay_gives_the_same_state(table, store, tmp_path):
    play_some(table)
    again = Table(EventStore(tmp_path / "table.sqlite3"), {"rolling-bones": RollingBonesRules()})
    assert again.resume()
    assert again.state == table.state


def test_undo_restores_the_previous_state_and_is_an_event(table, store):
    play_some(table)
    before_last = table.state.turn.layout
    table.dispatch({"type": "lay", "face": "pelvis"})
    table.undo()
    assert table.state.turn.layout == before_last
    assert store.events(table.view()["session"])[-1].kind == "undo"
    table.dispatch({"type": "undo"})
    assert "spine" not in table.state.turn.layout.slots


def test_undo_with_nothing_to_undo(table):
    with pytest.raises(IllegalPlay, match="nothing to undo"):
        table.undo()


def test_undo_survives_a_restart(table, tmp_path):
    play_some(table)
    table.undo()
    again = Table(EventStore(tmp_path / "table.sqlite3"), {"rolling-bones": RollingBonesRules()})
    again.resume()
    assert again.state == table.state and "spine" not in again.state.turn.layout.slots


def test_subscribers_hear_each_accepted_command(table):
    q = table.bus.subscribe()
    table.dispatch({"type": "roll", "faces": PERFECT})
    message = q.get(timeout=1)
    assert message["kind"] == "roll" and message["view"]["turn"]["phase"] == "lay"


def test_commands_from_many_threads_are_serialised(table, store):
    table.dispatch({"type": "roll", "faces": PERFECT})
    bones = ["skull", "ribcage", "spine", "pelvis", "left-upper-arm", "right-upper-arm", "left-thigh", "right-thigh"]
    errors = []

    def lay(face):
        try:
            table.dispatch({"type": "lay", "face": face})
        except IllegalPlay as error:  # a bone whose neighbour is not down yet
            errors.append(error)

    for _ in range(4):
        threads = [threading.Thread(target=lay, args=(b,)) for b in bones if b not in table.state.turn.layout.slots]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert set(table.state.turn.layout.slots) == set(bones)
    assert len(effective_actions(store.events(table.view()["session"]))) == 1 + len(bones)


def test_a_database_that_cannot_be_opened_is_a_clear_error(tmp_path):
    (tmp_path / "dir.sqlite3").mkdir()
    with pytest.raises(StoreError, match="cannot open"):
        EventStore(tmp_path / "dir.sqlite3")


def test_store_is_wal_and_full_sync(store):
    assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2
    assert store.integrity_ok()


# -- the referee's desk: what the page shows beside the game ----------------------------------


def restarted(store):
    fresh = Table(store, {"rolling-bones": RollingBonesRules()}, rng=random.Random(2))
    assert fresh.resume()
    return fresh


def test_the_desk_is_logged_and_comes_back_after_a_restart(table, store):
    reading = {
        "dice": [{"face": "skull"}],
        "unreadable": [{"center": [1.0, 2.0], "why": "cocked die"}],
        "photo": "latest-1.jpg",
        "ms": 40.0,
    }
    table.update_desk(lambda d: {**d, "status": "look", "notice": "1 die not readable", "reading": reading})
    table.update_desk(lambda d: {**d, "status": "busy", "notice": "reading the dice…"}, log=False)
    assert restarted(store).desk() == {
        "status": "look",
        "notice": "1 die not readable",
        "reading": reading,
        "flagged_graves": None,
        "graves_photo": None,
    }  # a busy status passes by, unlogged


def test_undo_takes_back_game_actions_not_the_desk(table, store):
    table.dispatch({"type": "roll", "faces": PERFECT})
    table.update_desk(lambda d: {**d, "notice": "read 18 dice"})
    table.undo()
    assert table.state.turn.phase == "throw" and table.desk()["notice"] == "read 18 dice"
    assert restarted(store).desk()["notice"] == "read 18 dice"


def test_a_new_game_starts_with_a_clear_desk(table):
    table.update_desk(lambda d: {**d, "status": "look", "notice": "rule flag"})
    table.new_game("rolling-bones", {"players": ["cat", "dan"]})
    assert table.desk()["status"] == "ready" and table.desk()["notice"] == ""


def test_desk_changes_from_many_threads_are_never_lost(table, store):
    table.update_desk(lambda d: {**d, "reading": {"dice": [], "unreadable": [], "photo": None, "ms": 0.0}})

    def name(n):
        table.update_desk(lambda d: {**d, "reading": {**d["reading"], "dice": d["reading"]["dice"] + [n]}})

    threads = [threading.Thread(target=name, args=(n,)) for n in range(40)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(table.desk()["reading"]["dice"]) == list(range(40))
    assert sorted(restarted(store).desk()["reading"]["dice"]) == list(range(40))


def test_the_desk_is_no_command(table):
    with pytest.raises(BadInput, match="update_desk"):
        table.dispatch({"type": "desk", "status": "ready"})


def test_throw_for_me_rolls_with_the_tables_random_source_and_replays_without_it(store):
    rolled = []
    for _ in range(2):
        t = Table(store, {"rolling-bones": RollingBonesRules()}, rng=random.Random(7))
        t.new_game("rolling-bones", {"players": ["ann", "bob"]})
        t.dispatch({"type": "throw"})
        rolled.append(t.state.turn.loose)
    assert rolled[0] == rolled[1] and len(rolled[0]) == 18  # a fixed source, the same throw
    assert restarted(store).state.turn.loose == rolled[1]  # the event holds the faces


def test_a_desk_said_again_unchanged_is_no_event_and_no_publish(table, store):
    table.update_desk(lambda d: {**d, "notice": "read 18 dice"})
    heard = table.bus.subscribe()
    events = len(store.events(table.view()["session"]))
    table.update_desk(lambda d: {**d, "notice": "read 18 dice"})
    assert heard.empty() and len(store.events(table.view()["session"])) == events


def test_undo_before_the_first_action_brings_back_the_game_it_replaced(table, store):
    play_some(table)
    before = table.view()
    table.new_game("rolling-bones", {"players": ["cat", "dan"]})
    assert table.view()["can_undo"]
    table.undo()
    assert table.view()["players"] == ["ann", "bob"] and table.view()["turn"] == before["turn"]
    again = Table(store, {"rolling-bones": RollingBonesRules()})  # and it stays taken back after a restart
    assert again.resume() and again.view()["players"] == ["ann", "bob"]
    table.undo()  # the old game's own actions undo as before
    assert table.view()["turn"] != before["turn"]


def test_the_first_game_has_nothing_to_undo(store):
    fresh = Table(store, {"rolling-bones": RollingBonesRules()})
    fresh.new_game("rolling-bones", {"players": ["ann", "bob"]})
    assert not fresh.view()["can_undo"]
    with pytest.raises(IllegalPlay, match="nothing to undo"):
        fresh.undo()
