"""The shipped networks (companion/data/networks/*.onnx, cards in models/networks/), run with onnxruntime, or
with OpenCV's DNN module where onnxruntime has no wheel (32-bit Raspberry Pi OS): the same files, the same
outputs (within 1e-4), onnxruntime about three times as fast on one core.

Each is loaded once a process. An onnxruntime session is shared between threads (its run() is thread-safe);
an OpenCV net is not (it keeps its buffers), so each thread gets its own.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from ..errors import BadInput

try:
    import onnxruntime
except ImportError:  # no wheel for this machine: OpenCV runs the networks
    onnxruntime = None

NETWORKS = Path(__file__).resolve().parents[1] / "data" / "networks"
RUNTIMES = ("onnxruntime", "opencv") if onnxruntime is not None else ("opencv",)
RUNTIME = RUNTIMES[0]  # the runtime run() uses (tests and the bench set it to compare)

_local = threading.local()
_sessions: dict[str, object] = {}
_sessions_lock = threading.Lock()


def run(name: str, batch: np.ndarray) -> np.ndarray:
    """The network's output for a float32 batch (n, channels, h, w)."""
    return _RUNNERS[RUNTIME](name, np.ascontiguousarray(batch, np.float32))


def _path(name: str) -> Path:
    path = NETWORKS / name
    if not path.is_file():
        raise BadInput(f"network {path} is missing: reinstall the companion (pip install .)")
    return path


def _damaged(path: Path, error: Exception) -> BadInput:
    first_line = (str(error).strip().splitlines() or [type(error).__name__])[0][:120]
    return BadInput(f"network {path} cannot be read ({first_line}): reinstall the companion (pip install .)")


def _run_onnxruntime(name: str, batch: np.ndarray) -> np.ndarray:
    key = str(NETWORKS / name)  # (the file is looked for once, not on every run)
    with _sessions_lock:
        if key not in _sessions:
            path = _path(name)
            options = onnxruntime.SessionOptions()
            # as many threads as this process may use (the bench pins it to one core)
            options.intra_op_num_threads = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 0
            options.inter_op_num_threads = 1
            try:
                _sessions[key] = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
            except Exception as error:  # onnxruntime's own error types are not importable by name
                raise _damaged(path, error) from error
        session = _sessions[key]
    return session.run(None, {session.get_inputs()[0].name: batch})[0]  # type: ignore[attr-defined]


def _run_opencv(name: str, batch: np.ndarray) -> np.ndarray:
    key = str(NETWORKS / name)
    nets = _local.__dict__.setdefault("nets", {})
    if key not in nets:
        path = _path(name)
        try:
            nets[key] = cv2.dnn.readNetFromONNX(str(path))
        except cv2.error as error:
            raise _damaged(path, error) from error
    net = nets[key]
    net.setInput(batch)
    return net.forward()


_RUNNERS: dict[str, Callable[[str, np.ndarray], np.ndarray]] = {
    "onnxruntime": _run_onnxruntime,
    "opencv": _run_opencv,
}
