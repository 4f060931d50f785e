"""Cameras: the replay source, and a camera that is unplugged, sends garbage or hangs."""

import shutil
import threading
import time

import cv2
import numpy as np
import pytest

from companion.devices.camera import FolderCamera, ReconnectingCamera
from companion.errors import DeviceError


def test_replay_camera(tmp_path):
    for i in (2, 1):
        cv2.imwrite(str(tmp_path / f"{i}.png"), np.full((8, 8, 3), i * 50, np.uint8))
    (tmp_path / "notes.txt").write_text("not a photo")
    camera = FolderCamera(tmp_path)
    assert [int(camera.capture()[0, 0, 0]) for _ in range(3)] == [50, 100, 50]
    with pytest.raises(DeviceError, match="does not exist"):
        FolderCamera(tmp_path / "gone")
    (tmp_path / "1.png").write_text("garbage")
    with pytest.raises(DeviceError, match="not an image"):
        FolderCamera(tmp_path).capture()


def test_an_unplugged_camera_is_reported_and_picked_up_again(tmp_path):
    """The camera is a real folder source; unplugging is the folder vanishing, garbage is a blank frame."""

    folder = tmp_path / "cam"
    folder.mkdir()
    frame = np.random.default_rng(1).integers(0, 255, (20, 20, 3), dtype=np.uint8)
    cv2.imwrite(str(folder / "a.png"), frame)
    changes, back = [], threading.Event()

    def changed(ok, why):
        changes.append(ok)
        if ok and len(changes) > 2:
            back.set()

    camera = ReconnectingCamera(lambda: FolderCamera(folder), changed, retry_s=0.1)
    assert camera.capture().shape == (20, 20, 3)
    cv2.imwrite(str(folder / "a.png"), np.zeros((20, 20, 3), np.uint8))  # garbage: a blank frame
    with pytest.raises(DeviceError, match="blank"):
        camera.capture()
    assert changes == [True, False]
    shutil.rmtree(folder)  # unplugged
    with pytest.raises(DeviceError, match="unavailable"):
        camera.capture()
    folder.mkdir()
    cv2.imwrite(str(folder / "a.png"), frame)  # plugged back in
    assert back.wait(timeout=5)  # the watcher says so
    assert camera.ok and changes == [True, False, True]
    assert camera.capture().shape == (20, 20, 3)
    camera.close()


class HungCamera:
    """A device whose capture never returns (a libcamera call stuck after the ribbon cable came loose)."""

    name = "hung"

    def __init__(self) -> None:
        self.release = threading.Event()

    def capture(self) -> np.ndarray:
        self.release.wait()
        raise DeviceError("released")

    def close(self) -> None:
        self.release.wait()  # a hung device may hang its close too


def test_a_hung_camera_costs_a_capture_its_timeout_and_is_dropped():
    hung, changes = HungCamera(), []
    camera = ReconnectingCamera(lambda: hung, lambda ok, why: changes.append((ok, why)), retry_s=60, timeout_s=0.3)
    started = time.monotonic()
    with pytest.raises(DeviceError, match="did not answer in 0.3 s"):
        camera.capture()
    assert time.monotonic() - started < 5  # not for ever: the caller is a button's worker or a web thread
    assert not camera.ok and changes == [(True, ""), (False, "the camera did not answer in 0.3 s")]
    with pytest.raises(DeviceError, match="unavailable"):
        camera.capture()
    hung.release.set()
    camera.close()


def test_an_unplugged_camera_is_noticed_before_the_next_capture(tmp_path):
    folder = tmp_path / "cam"
    folder.mkdir()
    cv2.imwrite(str(folder / "a.png"), np.random.default_rng(1).integers(0, 255, (20, 20, 3), dtype=np.uint8))
    gone, said = threading.Event(), []

    def noticed(ok: bool, why: str) -> None:
        if not ok:
            said.append(why)  # (camera.why moves on: the watcher's next try says the folder does not exist)
            gone.set()

    camera = ReconnectingCamera(lambda: FolderCamera(folder), noticed, retry_s=0.05)
    assert camera.ok
    shutil.rmtree(folder)  # unplugged, and nobody presses a button
    assert gone.wait(timeout=5) and "is gone" in said[0]
    camera.close()
