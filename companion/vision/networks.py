"""The shipped networks (companion/data/networks/*.onnx, cards in models/networks/), run with OpenCV's DNN module.

Each is loaded once a process; a network is not shared between threads (OpenCV's nets keep their buffers),
so each thread gets its own.
"""

from __future__ import annotations

import threading
from pathlib import Path

import cv2
import numpy as np

from ..errors import BadInput

NETWORKS = Path(__file__).resolve().parents[1] / "data" / "networks"
_local = threading.local()


def network(name: str) -> cv2.dnn.Net:
    """The network ``name`` (a file in NETWORKS), this thread's copy."""
    nets = _local.__dict__.setdefault("nets", {})
    if name not in nets:
        path = NETWORKS / name
        if not path.is_file():
            raise BadInput(f"network {path} is missing: reinstall the companion (pip install .)")
        nets[name] = cv2.dnn.readNetFromONNX(str(path))
    return nets[name]


def run(name: str, batch: np.ndarray) -> np.ndarray:
    """The network's output for a float32 batch (n, channels, h, w)."""
    net = network(name)
    net.setInput(np.ascontiguousarray(batch, np.float32))
    return net.forward()
