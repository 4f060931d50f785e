"""Cameras: one small interface, three sources.

- ``PiCamera``: picamera2 on a Raspberry Pi (imported only when chosen).
- ``UsbCamera``: any webcam through ``cv2.VideoCapture``.
- ``FolderCamera``: replays image files in name order: tests and demos.

``capture()`` returns a BGR ``numpy`` array (OpenCV's order) or raises
DeviceError with one line saying what is wrong. Nothing here waits forever.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from ..errors import DeviceError

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp"}
STILL_SIZE = (2304, 1296)  # Camera Module 3 (Wide) 16:9 binned mode
CAPTURE_TIMEOUT_S = 10.0  # a still takes well under a second; no answer by then: the camera is hung


class Camera(Protocol):
    name: str

    def capture(self) -> np.ndarray: ...

    def close(self) -> None: ...


def read_image(path: str | Path) -> np.ndarray:
    """Load one photo as BGR, or a one-line error for a missing or unreadable file."""
    import cv2

    path = Path(path)
    if path.is_dir():
        raise DeviceError(f"{path}: is a folder, not an image")
    if not path.is_file():
        raise DeviceError(f"{path}: no such image")
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise DeviceError(f"{path}: not an image OpenCV can read")
    return image


class FolderCamera:
    """Each capture is the next image of a folder (or the one file given), cycling round."""

    def __init__(self, source: str | Path):
        self.source = Path(source)
        if self.source.is_file():
            self.files = [self.source]
        elif self.source.is_dir():
            self.files = sorted(p for p in self.source.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        else:
            raise DeviceError(f"camera folder {self.source} does not exist")
        if not self.files:
            raise DeviceError(f"camera folder {self.source} holds no images")
        self.name = f"folder:{self.source}"
        self._next = 0
        self.last_path: Path | None = None

    def capture(self) -> np.ndarray:
        path = self.files[self._next % len(self.files)]
        self._next += 1
        self.last_path = path
        return read_image(path)

    def present(self) -> bool:
        return self.source.exists()

    def close(self) -> None:
        pass


class UsbCamera:
    """A webcam by index. Opening a missing camera fails at once; a stalled read times out."""

    def __init__(
        self, index: int = 0, size: tuple[int, int] = STILL_SIZE, timeout_s: float = 3.0, warmup_frames: int = 5
    ):
        import cv2

        self.name = f"usb:{index}"
        self._cv2 = cv2
        self._node = Path(f"/dev/video{index}")  # on Linux: gone when the webcam is unplugged
        self._has_node = self._node.exists()
        params = [
            cv2.CAP_PROP_OPEN_TIMEOUT_MSEC,
            int(timeout_s * 1000),
            cv2.CAP_PROP_READ_TIMEOUT_MSEC,
            int(timeout_s * 1000),
        ]
        self._cap = cv2.VideoCapture(index, cv2.CAP_ANY, params)
        if not self._cap.isOpened():
            raise DeviceError(f"no USB camera at index {index} (is it plugged in?)")
        self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
        self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        for _ in range(warmup_frames):  # let exposure settle before the first still
            self._cap.read()

    def capture(self) -> np.ndarray:
        # The driver buffers frames: drop one so the still is of now, not of a moment ago.
        self._cap.grab()
        ok, frame = self._cap.read()
        if not ok or frame is None or frame.size == 0:
            raise DeviceError(f"camera {self.name} returned no picture (unplugged?)")
        return frame

    def present(self) -> bool:
        return self._node.exists() or not self._has_node

    def close(self) -> None:
        self._cap.release()


class PiCamera:
    """picamera2 stills: configured once, exposure and white balance locked after warm-up, fixed focus."""

    def __init__(self, size: tuple[int, int] = STILL_SIZE, focus_m: float = 0.65, warmup_s: float = 1.5):
        try:
            from picamera2 import Picamera2  # apt's python3-picamera2; only on a Pi
        except ImportError:
            raise DeviceError(
                "picamera2 is not installed (on Raspberry Pi OS: apt install python3-picamera2)"
            ) from None
        try:
            self._cam = Picamera2()
        except (RuntimeError, IndexError) as error:
            raise DeviceError(f"no Raspberry Pi camera found: {error}") from None
        self.name = "picamera2"
        # "RGB888" is stored B, G, R: exactly OpenCV's order, so no conversion (the usual trap is "BGR888").
        config = self._cam.create_still_configuration(main={"size": size, "format": "RGB888"}, buffer_count=2)
        self._cam.configure(config)
        self._cam.start()
        time.sleep(warmup_s)
        self._lock_exposure(focus_m)

    def _lock_exposure(self, focus_m: float) -> None:
        meta: dict[str, Any] = self._cam.capture_metadata()
        controls: dict[str, Any] = {"AeEnable": False, "AwbEnable": False}
        for key in ("ExposureTime", "AnalogueGain", "ColourGains"):
            if key in meta:
                controls[key] = meta[key]
        if "AfMode" in self._cam.camera_controls:
            from libcamera import controls as lc

            controls["AfMode"] = lc.AfModeEnum.Manual
            controls["LensPosition"] = 1.0 / max(focus_m, 0.1)  # dioptres
        self._cam.set_controls(controls)

    def capture(self) -> np.ndarray:
        try:
            return self._cam.capture_array("main")
        except Exception as error:  # libcamera reports many kinds of failure
            raise DeviceError(f"the Pi camera did not return a picture: {error}") from None

    def close(self) -> None:
        self._cam.stop()
        self._cam.close()


def open_camera(settings: dict[str, Any]) -> Camera:
    """The source named in the [camera] config: "picamera2", "usb" or "folder"."""
    source = settings.get("source", "folder")
    if source == "picamera2":
        return PiCamera()
    if source == "usb":
        return UsbCamera(int(settings.get("index", 0)))
    if source == "folder":
        folder = settings.get("folder") or ""
        if not folder:
            raise DeviceError('camera source is "folder" but no folder is set in [camera]')
        return FolderCamera(folder)
    raise DeviceError(f"unknown camera source {source!r}: use picamera2, usb or folder")


class ReconnectingCamera:
    """A camera that may be unplugged: a failed, hung or garbage capture drops it, a watcher reopens it.

    Captures wait at most ``timeout_s``; the watcher also drops a camera whose device is gone
    (``present()``, where the source can tell) without waiting for the next capture.

    ``opener()`` makes the real camera (raising DeviceError while it is missing). ``on_change(ok, why)``
    hears when it goes and comes back, so the page and status LED can say so; the table keeps
    working by hand meanwhile. A returning camera is picked up within ``retry_s``.
    """

    def __init__(self, opener, on_change=None, retry_s: float = 2.0, timeout_s: float = CAPTURE_TIMEOUT_S):
        self._opener = opener
        self._timeout_s = timeout_s
        self.on_change = on_change or (lambda ok, why: None)
        self._lock = threading.Lock()
        self._camera: Camera | None = None
        self._stop = threading.Event()
        self.name = "camera"
        self.ok = False
        self.why = "not opened yet"
        self._try_open()
        self._watcher = threading.Thread(target=self._watch, args=(retry_s,), name="camera-watch", daemon=True)
        self._watcher.start()

    def _try_open(self) -> None:
        with self._lock:
            if self._camera is not None:
                return
            try:
                self._camera = self._opener()
                self.name = self._camera.name
            except DeviceError as error:
                self._set(False, str(error))
                return
        self._set(True, "")

    def _set(self, ok: bool, why: str) -> None:
        changed = ok != self.ok
        self.ok, self.why = ok, why
        if changed:
            self.on_change(ok, why)

    def _watch(self, retry_s: float) -> None:
        while not self._stop.wait(retry_s):
            camera = self._camera
            if camera is None:
                self._try_open()
            elif not getattr(camera, "present", lambda: True)():  # unplugged: said now, not at the next capture
                self._drop(camera, f"camera {camera.name} is gone (unplugged?)")

    def capture(self) -> np.ndarray:
        with self._lock:
            camera = self._camera
        if camera is None:
            raise DeviceError(f"camera unavailable: {self.why}")
        try:
            frame = _within(self._timeout_s, camera.capture, f"the camera did not answer in {self._timeout_s:g} s")
            if frame is None or frame.size == 0 or frame.ndim != 3 or int(frame.max()) == int(frame.min()):
                raise DeviceError("the camera sent an empty or blank picture")
            return frame
        except DeviceError as error:
            self._drop(camera, str(error))
            raise

    def _drop(self, camera: Camera, why: str) -> None:
        with self._lock:
            if self._camera is not camera:
                return  # dropped already
            self._camera = None
        # a hung device may hang its close too: closed aside, it is dropped either way
        threading.Thread(target=_close_quietly, args=(camera,), name="camera-close", daemon=True).start()
        self._set(False, why)

    def close(self) -> None:
        self._stop.set()
        with self._lock:
            camera, self._camera = self._camera, None
        if camera is not None:
            camera.close()


def _within(timeout_s: float, capture, why: str) -> np.ndarray:
    """``capture()`` in a thread of its own, waited for at most ``timeout_s``: a hung camera (a libcamera call
    that never returns) costs the caller, a button's worker or a web thread, that long and no longer."""
    result: dict[str, Any] = {}
    done = threading.Event()

    def run() -> None:
        try:
            result["frame"] = capture()
        except BaseException as error:  # handed to the caller, whatever it is
            result["error"] = error
        finally:
            done.set()

    threading.Thread(target=run, name="camera-capture", daemon=True).start()
    if not done.wait(timeout_s):
        raise DeviceError(why)
    if "error" in result:
        raise result["error"]
    return result["frame"]


def _close_quietly(camera: Camera) -> None:
    try:
        camera.close()
    except Exception:  # a half-gone device may fail to close
        pass
