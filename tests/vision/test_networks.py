"""The shipped networks run alike under onnxruntime and OpenCV's DNN module (the fallback where onnxruntime has no
wheel), and a missing or damaged network file is a one-line error."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from bench.render.dice_scene import render_scene, render_sheet, set_camera_height
from companion.errors import BadInput
from companion.vision import networks
from companion.vision.embedding import cut_face
from companion.vision.finding import FINDER, standardise
from companion.vision.piece_finding import PIECE_FINDER
from companion.vision.reader import DiceReader
from companion.vision.refining import LEAN_JUDGE, LEAN_VIEW, REFINER, REFINER_VIEW

EMBEDDER = "face-embed.onnx"
both = pytest.mark.skipif("onnxruntime" not in networks.RUNTIMES, reason="onnxruntime is not installed here")


SEED = 900  # the rig (camera height) of every photo here


@pytest.fixture(scope="module")
def photo() -> tuple[np.ndarray, dict]:
    image, truth = render_scene(SEED + 41, style=0, colouring="black", height_cm=set_camera_height(SEED))
    return image, truth


@pytest.fixture(scope="module")
def sheets(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("sheets")
    for k in range(3):
        cv2.imwrite(str(folder / f"sheet-{k}.jpg"), render_sheet(SEED + k, style=0, height_cm=set_camera_height(SEED)))
    return folder


def outputs(runtime: str, name: str, batch: np.ndarray, monkeypatch) -> np.ndarray:
    monkeypatch.setattr(networks, "RUNTIME", runtime)
    return networks.run(name, batch)


@both
def test_every_network_gives_the_same_numbers_under_both_runtimes(photo, monkeypatch):
    image, truth = photo
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    small = cv2.resize(gray, (256, 144), interpolation=cv2.INTER_AREA)
    centres = [tuple(d["center"]) for d in truth["dice"]]
    windows = np.stack([standardise(cut_face(gray, c, 0.0, 60.0)) for c in centres])  # any die-sized windows
    batches = {
        FINDER: standardise(small)[None, None],
        PIECE_FINDER: standardise(small)[None, None],  # (any board: the numbers are what is compared)
        REFINER: np.stack([cv2.resize(w, (REFINER_VIEW.px,) * 2) for w in windows])[:, None],
        LEAN_JUDGE: np.stack([cv2.resize(w, (LEAN_VIEW.px,) * 2) for w in windows])[:, None],
        EMBEDDER: windows[:, None],
    }
    for name, batch in batches.items():
        ours = outputs("onnxruntime", name, batch, monkeypatch)
        theirs = outputs("opencv", name, batch, monkeypatch)
        assert ours.shape == theirs.shape and np.abs(ours - theirs).max() < 1e-4, name


@both
def test_a_photo_reads_the_same_under_both_runtimes(photo, sheets, monkeypatch):
    image, _ = photo
    readings = []
    for runtime in ("onnxruntime", "opencv"):
        monkeypatch.setattr(networks, "RUNTIME", runtime)
        reading = DiceReader.enroll(sheets).read(image)
        readings.append(([d["face"] for d in reading["dice"]], len(reading["unreadable"])))
    assert readings[0] == readings[1] and len(readings[0][0]) >= 10


@pytest.mark.parametrize("runtime", networks.RUNTIMES)
def test_a_missing_or_damaged_network_is_a_one_line_error(runtime, tmp_path, monkeypatch):
    monkeypatch.setattr(networks, "NETWORKS", tmp_path)
    monkeypatch.setattr(networks, "RUNTIME", runtime)
    batch = np.zeros((1, 1, 40, 40), np.float32)
    with pytest.raises(BadInput, match="is missing: reinstall"):
        networks.run(REFINER, batch)
    (tmp_path / REFINER).write_bytes(b"not a network")
    with pytest.raises(BadInput, match="cannot be read") as error:
        networks.run(REFINER, batch)
    assert "\n" not in str(error.value)
