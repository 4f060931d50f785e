"""UNDERTAKER end to end: a replayed photo, the real dice reader, the Table, the page state."""

import json
import random
import time
from pathlib import Path

import pytest

from companion import config
from companion.app import build
from companion.games.rolling_bones.dice import FACE_IDS

SCENE = Path(__file__).resolve().parents[1] / "bench" / "data" / "dice" / "dev" / "scene-00205"


def name_the_rest(companion, truth: list[dict]) -> None:
    """The table names each die the reader would not: as a person tapping the page."""
    reading = companion.referee.reading
    while reading.unreadable:
        centre = reading.unreadable[0]["center"]
        die = min(truth, key=lambda d: abs(d["center"][0] - centre[0]) + abs(d["center"][1] - centre[1]))
        companion.referee.name_die(0, die["face"])
        reading = companion.referee.reading  # a value: the desk as it is now


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
    name_the_rest(companion, truth)
    reading = companion.referee.reading
    turn = companion.table.state.turn
    assert turn.phase == "lay"
    assert sorted(turn.loose) == sorted(d["face"] for d in truth)
    assert companion.referee.status == "ready"


def test_a_button_that_means_nothing_in_this_game_is_a_hint_not_a_warning(table_with_camera):
    from companion.web.tomb import demo_stage

    companion = table_with_camera
    companion.table.new_game("dark-tomb", {"scenario": demo_stage()})
    companion.referee.request("undertaker")
    assert companion.referee.wait_idle()
    assert companion.referee.status == "ready"
    assert companion.referee.notice == "UNDERTAKER reads the dice or the graves: nothing to do in Dark Tomb"
    companion.table.new_game("rolling-bones", {"players": ["Ann", "Bob"]})
    companion.referee.handle("seismic")  # was a red ERROR ("unknown Rolling Bones command")
    assert companion.referee.status == "ready" and "nothing to do in Rolling Bones" in companion.referee.notice
    companion.table.new_game("ghosts", {"players": ["Ann", "Bob"]})
    companion.referee.handle("turn")
    assert companion.referee.status == "ready" and "passes by itself" in companion.referee.notice


def test_a_refused_read_from_the_page_does_not_stay_busy(tmp_path, pin_factory):
    """The page's UNDERTAKER with the last throw's dice still on the table: the throw is refused, and the
    status says why (amber) instead of staying on "reading the dice…" (it did: the page calls the referee
    directly, and only the button worker turned a refusal into a status)."""
    from companion.errors import IllegalPlay

    settings = config.load()
    # a photo the demo set reads whole (no die to name), so a press reads and throws at once
    settings["camera"]["folder"] = str(SCENE.with_name("scene-00200.jpg"))
    companion = build(
        settings, demo=True, pin_factory=pin_factory, instance=tmp_path / "instance", rng=random.Random(1)
    )
    try:
        companion.table.dispatch({"type": "roll", "faces": list(FACE_IDS)})  # the last throw's dice on the table
        with pytest.raises(IllegalPlay, match="before another throw"):
            companion.referee.handle("undertaker")
        assert companion.referee.status == "look" and "before another throw" in companion.referee.notice
    finally:
        companion.close()


def test_undertaker_on_sepulchre_reads_the_graves_and_flags_a_rule(table_with_camera, tmp_path):
    import cv2

    from bench.render.pieces_scene import render_board
    from companion.devices.camera import FolderCamera

    companion = table_with_camera
    photo, truth, _ = render_board(33, overlaps=0)  # a board the reader reads whole
    cv2.imwrite(str(tmp_path / "board.png"), photo)
    companion.referee.board_camera = FolderCamera(tmp_path / "board.png")
    companion.table.new_game("sepulchre", {"players": ["north", "south", "west", "east"]})
    companion.referee.request("undertaker")
    assert companion.referee.wait_idle(timeout=20)
    # a board full of random pieces breaks the rules (pieces without a skull, too many of a kind)
    assert companion.referee.status == "look" and "rule flag" in companion.referee.notice
    assert companion.referee.graves_seen == truth["graves"]
    assert companion.table.view()["graves"]["north"]["pieces"]["leg"] == 0  # nothing recorded yet
    companion.referee.override("the table set up a position")
    view = companion.table.view()
    assert view["overrides"][0].startswith("the table set up a position")
    assert {name: grave["pieces"] for name, grave in view["graves"].items()} == truth["graves"]


def test_undertaker_on_sepulchre_with_overlapping_pieces_asks_for_a_look(table_with_camera):
    companion = table_with_camera
    companion.table.new_game("sepulchre", {"players": ["north", "south", "west", "east"]})
    companion.referee.request("undertaker")  # the demo boards each hold an overlapping pair
    assert companion.referee.wait_idle(timeout=20)
    assert companion.referee.status == "look" and "count them on the page" in companion.referee.notice
    assert companion.referee.graves_seen is None
    photo = companion.table.desk()["graves_photo"]  # shown beside the counts by touch, the pieces ringed
    assert photo and (Path(companion.app.instance_path) / "photos" / photo).is_file()


def test_the_notice_counts_unreadable_dice_in_words():
    from companion.referee import dice_not_readable

    assert dice_not_readable(1) == "1 die not readable: tap to name or re-throw"
    assert dice_not_readable(3) == "3 dice not readable: tap to name or re-throw"


def test_a_camera_lost_at_a_press_says_so_as_its_watcher_does(tmp_path, pin_factory):
    import shutil

    folder = tmp_path / "camera"
    folder.mkdir()
    shutil.copy(SCENE.with_suffix(".jpg"), folder / "a.jpg")
    settings = config.load()
    settings["camera"]["folder"] = str(folder)
    companion = build(settings, demo=True, pin_factory=pin_factory, instance=tmp_path / "instance")
    try:
        (folder / "a.jpg").write_bytes(b"")  # the camera answers with garbage
        companion.referee.request("undertaker")
        assert companion.referee.wait_idle(timeout=20)
        assert companion.referee.status == "error"
        assert companion.referee.notice == "camera gone: " + (
            f"{folder / 'a.jpg'}: not an image OpenCV can read — the table still works by hand"
        )
    finally:
        companion.close()


def test_undertaker_reads_a_tilted_board_through_its_board_map(tmp_path, pin_factory, monkeypatch):
    """[sepulchre] graves in board form: the board is warped flat, the flat board is the photo shown, ringed."""
    import cv2

    from companion.vision.pieces import PieceReader

    tilted = Path(__file__).resolve().parents[1] / "bench" / "data" / "pieces" / "tilted"
    monkeypatch.setenv("COMPANION_MODELS", str(tmp_path / "models"))
    PieceReader.enroll(tilted / "enroll").save("flat")
    settings = config.load()
    settings["camera"]["folder"] = str(tilted / "board-00900.jpg")  # its south-west grave holds an overlapping pair
    settings["sepulchre"].update({"graves": str(tilted / "graves.json"), "set": "flat"})
    built = build(settings, pin_factory=pin_factory, instance=tmp_path / "instance", rng=random.Random(1))
    try:
        built.table.new_game("sepulchre", {"players": ["north", "south", "west", "east"]})
        built.referee.request("undertaker")
        assert built.referee.wait_idle(timeout=20)
        assert built.referee.notice.startswith("1 piece not readable")  # the pair; the four markers are not pieces
        shown = cv2.imread(str(Path(built.app.instance_path) / "photos" / built.table.desk()["graves_photo"]))
        assert shown.shape[:2] == (540, 960)  # the board warped flat (at the reader's scale), not the tilted photo
    finally:
        built.close()
