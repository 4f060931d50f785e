"""The Sepulchre board warped flat by its markers: the same graves and piece sizes whatever the camera's tilt."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.errors import BadInput
from companion.vision.board import Board, marker_centres
from companion.vision.pieces import PieceReader, graves_to_read

PIECES = Path(__file__).resolve().parents[2] / "bench" / "data" / "pieces"
TILTED = PIECES / "tilted"


@pytest.fixture(scope="module")
def reader(tmp_path_factory):
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("COMPANION_MODELS", str(tmp_path_factory.mktemp("models")))
        PieceReader.enroll(TILTED / "enroll").save("flat")  # one piece a photo, straight down, at board scale
        yield PieceReader.load("flat")


def test_the_committed_tilted_set_reads_flat_and_its_centres_are_board_px(reader):
    spec = json.loads((TILTED / "graves.json").read_text())
    photo = cv2.imread(str(TILTED / "board-00900.jpg"))
    seen = graves_to_read(spec, photo)
    assert seen.image.shape[:2] == (540, 960) and seen.scale == 0.5  # warped straight to the reader's working scale
    truth = json.loads((TILTED / "board-00900.json").read_text())
    reading = reader.read(*seen)
    for overlap in truth["overlaps"]:  # reported where the flat board has it, in board px
        assert any(
            np.hypot(u["center"][0] - overlap["center"][0], u["center"][1] - overlap["center"][1]) < 90
            for u in reading["unreadable"]
        )


def test_a_covered_marker_is_a_one_line_error():
    photo = cv2.imread(str(TILTED / "board-00902.jpg"))
    x, y = marker_centres(photo)[0].astype(int)
    photo[y - 60 : y + 60, max(0, x - 60) : x + 60] = 90  # a hand over marker 0
    with pytest.raises(BadInput, match=r"board markers \[0\] not seen in the photo"):
        graves_to_read(json.loads((TILTED / "graves.json").read_text()), photo)


def test_a_low_resolution_cameras_small_marker_is_found(reader):
    """A 960x540 camera: one board marker 24 px across is missed, and the board was refused ("not seen ... is a
    corner of the board covered?"). It is looked for again, round where the others place it, at twice the size."""
    spec = json.loads((TILTED / "graves.json").read_text())
    truth = json.loads((TILTED / "board-00904.json").read_text())
    photo = cv2.imread(str(TILTED / "board-00904.jpg"))
    small = cv2.resize(photo, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    # (OpenCV 5.1 misses marker 3 at the photo's size; the Pi's 4.10 finds it)
    assert reader.read(*graves_to_read(spec, small))["graves"] == truth["graves"]


@pytest.mark.parametrize(
    "board, message",
    [
        ([1920, 1080], "is {"),
        ({"size": [1920], "markers": {}}, "board size"),
        ({"size": [0, 1080], "markers": {}}, "board size"),
        ({"size": [1920, 1080], "markers": {"0": [1, 1], "1": [5, 1], "2": [5, 5]}}, "at least 4"),
        ({"size": [1920, 1080], "markers": {"x": [1, 1], "1": [5, 1], "2": [5, 5], "3": [1, 5]}}, "0-49"),
        ({"size": [1920, 1080], "markers": {"60": [1, 1], "1": [5, 1], "2": [5, 5], "3": [1, 5]}}, "0-49"),
        ({"size": [1920, 1080], "markers": {"0": [1], "1": [5, 1], "2": [5, 5], "3": [1, 5]}}, r"\[x, y\]"),
    ],
)
def test_bad_board_maps(board, message):
    with pytest.raises(BadInput, match=message):
        Board.from_json(board)


def test_cli_reads_a_tilted_photo_with_a_board_map(run_cli, tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_MODELS", str(tmp_path / "models"))
    done = run_cli("pieces", "enroll", str(TILTED / "enroll"), "--set", "flat")
    assert done.returncode == 0, done.stderr
    done = run_cli(
        "pieces",
        "read",
        str(TILTED / "board-00901.jpg"),
        "--set",
        "flat",
        "--graves",
        str(TILTED / "graves.json"),
        "--json",
    )
    assert done.returncode == 0, done.stderr
    truth = json.loads((TILTED / "board-00901.json").read_text())
    overlapped = {o["grave"] for o in truth["overlaps"]}
    reading = json.loads(done.stdout)
    assert {g: c for g, c in reading["graves"].items() if g not in overlapped} == {
        g: c for g, c in truth["graves"].items() if g not in overlapped
    }


def test_every_tilted_board_reads_as_its_flat_truth_and_flags_only_the_pairs(reader):
    """Camera tilted 4-15 degrees, warped flat by its markers: every grave reads as the flat board's truth; its
    markers, its edge and its graves' printed outlines are board: only the overlapping pairs are flagged."""
    spec = json.loads((TILTED / "graves.json").read_text())
    for truth_file in sorted(TILTED.glob("board-*.json")):
        truth = json.loads(truth_file.read_text())
        reading = reader.read(*graves_to_read(spec, cv2.imread(str(truth_file.with_suffix(".jpg")))))
        overlapped = {o["grave"] for o in truth["overlaps"]}
        assert {g: c for g, c in reading["graves"].items() if g not in overlapped} == {
            g: c for g, c in truth["graves"].items() if g not in overlapped
        }, truth_file.name
        pairs = [o["center"] for o in truth["overlaps"]]
        assert all(
            any(np.hypot(u["center"][0] - x, u["center"][1] - y) < 90 for x, y in pairs) for u in reading["unreadable"]
        ), (
            truth_file.name,
            reading["unreadable"],
        )


def test_pieces_enrolled_from_the_table_cameras_whole_frames(run_cli, tmp_path, monkeypatch):
    """`pieces enroll --graves BOARD.json`: 15 tilted whole frames, a piece anywhere on the board, warped flat."""
    monkeypatch.setenv("COMPANION_MODELS", str(tmp_path / "models"))
    graves = str(TILTED / "graves.json")
    done = run_cli("pieces", "enroll", str(TILTED / "enroll-frames"), "--set", "frames", "--graves", graves)
    assert done.returncode == 0, done.stderr
    assert "enrolled 15 pieces" in done.stdout
    for board in ("board-00900", "board-00904"):
        done = run_cli("pieces", "read", str(TILTED / f"{board}.jpg"), "--set", "frames", "--graves", graves, "--json")
        reading, truth = json.loads(done.stdout), json.loads((TILTED / f"{board}.json").read_text())
        for name, counts in truth["graves"].items():  # right, or a piece there flagged: never silently wrong
            assert reading["graves"][name] == counts or any(
                cv2.pointPolygonTest(
                    np.array(json.loads(Path(graves).read_text())["graves"][name], np.float32),
                    tuple(u["center"]),
                    False,
                )
                >= 0
                for u in reading["unreadable"]
            ), (board, name)
    done = run_cli(
        "pieces", "enroll", str(TILTED / "enroll-frames"), "--set", "x", "--graves", str(PIECES / "dev" / "graves.json")
    )
    assert (
        done.returncode == 2
        and "whole-frame enrollment needs a board map" in done.stderr
        and "Traceback" not in done.stderr
    )
