"""UNDERTAKER end to end: a replayed photo, the real dice reader, the Table, the page state."""

import json
import random
import time
from pathlib import Path

import pytest

from companion import config
from companion.app import build

SCENE = Path(__file__).resolve().parents[1] / "bench" / "data" / "dice" / "dev" / "scene-00205"


@pytest.fixture
def table_with_camera(tmp_path, pin_factory):
    settings = config.load()
    settings["camera"]["folder"] = str(SCENE.with_suffix(".jpg"))
    built = build(settings, demo=True, pin_factory=pin_factory, instance=tmp_path / "instance", rng=random.Random(1))
    yield built
    built.close()


def test_undertaker_press_reads_the_photo_and_the_table_names_the_rest(table_with_camera, pin_factory):
    companion = table_with_camera
    assert companion.referee.reader is not None, "the demo dice set ships in models/dice/demo"
    pin = pin_factory.pin(27)
    pin.drive_low()
    time.sleep(0.05)
    pin.drive_high()
    assert companion.referee.wait_idle(timeout=20)
    reading = companion.referee.reading
    assert reading is not None and reading.photo
    assert (Path(companion.app.instance_path) / "photos" / reading.photo).is_file()
    truth = json.loads(SCENE.with_suffix(".json").read_text())["dice"]
    # the table names each die the reader would not: as a person tapping the page
    while reading.unreadable:
        centre = reading.unreadable[0]["center"]
        die = min(truth, key=lambda d: abs(d["center"][0] - centre[0]) + abs(d["center"][1] - centre[1]))
        companion.referee.name_die(0, die["face"])
    turn = companion.table.state.turn
    assert turn.phase == "lay"
    assert sorted(turn.loose) == sorted(d["face"] for d in truth)
    assert companion.referee.status == "ready"


def test_undertaker_without_a_rolling_bones_game_turns_amber(table_with_camera):
    from companion.web.tomb import demo_stage

    companion = table_with_camera
    companion.table.new_game("dark-tomb", {"scenario": demo_stage()})
    companion.referee.request("undertaker")
    assert companion.referee.wait_idle()
    assert companion.referee.status == "look" and "Rolling Bones" in companion.referee.notice
