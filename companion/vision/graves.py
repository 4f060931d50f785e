"""GRAVES.json: the graves a table's pieces are counted in, as polygons in photo pixels, as ArUco marker ids, or
as a board map (the board's corner markers and its graves in board pixels: board.py)."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from ..errors import BadInput
from .board import Board, marker_centres


def load_graves(data: Any, image: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """GRAVES.json: each grave a polygon [[x, y], ...] in image pixels, or {"aruco": [ids]} (marker centres)."""
    if not isinstance(data, dict) or not data:
        raise BadInput('GRAVES.json maps each grave\'s name to a polygon [[x, y], ...] or {"aruco": [ids]}')
    markers: dict[int, np.ndarray] | None = None
    graves = {}
    for name, spec in data.items():
        if isinstance(spec, dict) and "aruco" in spec:
            if markers is None:
                markers = marker_centres(image)
            ids = spec["aruco"]
            missing = [i for i in ids if i not in markers] if isinstance(ids, list) else ids
            if not isinstance(ids, list) or len(ids) < 3 or missing:
                raise BadInput(
                    f"grave {name!r}: ArUco markers {missing} not seen in the photo"
                    if isinstance(ids, list)
                    else f"grave {name!r}: aruco must be a list of marker ids"
                )
            points = np.array([markers[i] for i in ids], np.float32)
            graves[name] = cv2.convexHull(points).reshape(-1, 2)
            continue
        if not (
            isinstance(spec, list)
            and len(spec) >= 3
            and all(
                isinstance(p, list)
                and len(p) == 2
                and all(isinstance(v, (int, float)) and not isinstance(v, bool) and np.isfinite(v) for v in p)
                for p in spec
            )
        ):
            raise BadInput(f"grave {name!r}: a polygon is a list of at least 3 [x, y] points")
        graves[name] = np.array(spec, np.float32)
        if abs(cv2.contourArea(graves[name])) < 1.0:
            raise BadInput(f"grave {name!r}: its points enclose no area (all on one line?)")
    if image is not None:
        h, w = image.shape[:2]
        frame = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
        for name, polygon in graves.items():
            # a grave the photo does not show would always read empty: a map for another camera or photo size
            if cv2.intersectConvexConvex(cv2.convexHull(polygon), frame)[0] <= 0:
                raise BadInput(f"grave {name!r} lies outside the {w}x{h} photo: a map made for another camera?")
    return graves


def board_of(data: Any) -> Board | None:
    """GRAVES.json's board map, when it is in board form (see board.py); None for graves in photo pixels."""
    return Board.from_json(data["board"]) if isinstance(data, dict) and set(data) == {"board", "graves"} else None


def grave_at(point: tuple[float, float], graves: dict[str, np.ndarray]) -> str | None:
    """The grave a point (full-res px) is in (None: outside every grave)."""
    return next((name for name, polygon in graves.items() if cv2.pointPolygonTest(polygon, point, False) >= 0), None)
