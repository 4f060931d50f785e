"""The Table and the event log: every action an event, replay gives the same state, undo is an event."""

import random
import threading

import pytest

from companion.errors import BadInput, IllegalPlay, StoreError
from companion.games.rolling_bones.rules import RollingBonesRules
from companion.store import EventStore, effective_actions
from companion.table import Table

PERFECT = ["left-upper-arm", "left-forearm", "left-hand", "left-thigh", "left-lower-leg", "left-foot",
           "right-upper-arm", "right-forearm", "right-hand", "right-thigh", "right-lower-leg", "right-foot",
           "hat", "skull", "ribcage", "spine", "pelvis", "gravestone"]


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
