"""The teaching sheet: a printed page with a labelled place for each of the 18 faces and four corner markers.

Laid on the mat under the table camera with a die on each place, face up as labelled, one photo
teaches every face; re-laid and photographed three times, the set is learned from three photos
(`companion dice enroll --set NAME DIR`, DIR holding the sheet photos). The markers (ArUco
DICT_4X4_50, ids 4-7, so never taken for the mat's 0-3) tell where each place lies in a photo.
hardware/make_teaching_sheet.py prints the page from this layout.
"""

from __future__ import annotations

import cv2
import numpy as np

from ..errors import BadInput

PAGE_MM = (297.0, 210.0)  # A4 landscape
MARKER_MM = 24.0
MARKER_IDS = (4, 5, 6, 7)  # top left, top right, bottom right, bottom left
MARKER_INSET_MM = 10.0  # from the page's edges to a marker's outer corner
PLACE_MM = 32.0  # a place's square: room for a die up to ~25 mm and a hand's slack
COLUMNS, ROWS = 6, 3
GRID_MM = ((53.5, 243.5), (52.0, 150.0))  # place centres span these x and y (mm from the top left)


def sheet_faces() -> list[str]:
    """The faces in place order: row by row, left to right."""
    from ..games.rolling_bones.dice import FACE_IDS  # the face ids only: names, not rules

    return list(FACE_IDS)


def place_centres_mm() -> dict[str, tuple[float, float]]:
    """Each face's place centre on the page (mm from its top left)."""
    (x0, x1), (y0, y1) = GRID_MM
    xs, ys = np.linspace(x0, x1, COLUMNS), np.linspace(y0, y1, ROWS)
    return {face: (float(xs[k % COLUMNS]), float(ys[k // COLUMNS])) for k, face in enumerate(sheet_faces())}


def marker_corners_mm() -> dict[int, np.ndarray]:
    """Each marker's four corners on the page (mm; clockwise from its top left, as ArUco reports them)."""
    w, h = PAGE_MM
    m, s = MARKER_INSET_MM, MARKER_MM
    tops = [(m, m), (w - m - s, m), (w - m - s, h - m - s), (m, h - m - s)]
    return {
        i: np.array([[x, y], [x + s, y], [x + s, y + s], [x, y + s]], np.float32) for i, (x, y) in zip(MARKER_IDS, tops)
    }


def places_in_photo(gray: np.ndarray, name: str) -> tuple[dict[str, tuple[float, float]], float]:
    """Each face's place centre in a photo of the sheet (px), and px per mm there; one-line error if the sheet's
    markers are not seen (at least three of the four)."""
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
    corners, ids, _ = detector.detectMarkers(gray)
    page = marker_corners_mm()
    seen = {int(i): c.reshape(4, 2) for i, c in zip(ids.ravel(), corners)} if ids is not None else {}
    seen = {i: c for i, c in seen.items() if i in page}
    if len(seen) < 3:
        raise BadInput(
            f"{name}: the teaching sheet's markers are not seen ({len(seen)} of 4): the whole sheet in the photo, "
            f"unfolded and lit"
        )
    src = np.concatenate([page[i] for i in seen]).astype(np.float32)
    dst = np.concatenate(list(seen.values())).astype(np.float32)
    to_photo, _ = cv2.findHomography(src, dst)
    faces = place_centres_mm()
    points = cv2.perspectiveTransform(np.array([list(faces.values())], np.float32), to_photo)[0]
    side_px = float(np.mean([np.linalg.norm(c[1] - c[0]) for c in seen.values()]))
    return {face: (float(x), float(y)) for face, (x, y) in zip(faces, points)}, side_px / MARKER_MM


def sheet_image(dpi: int = 150) -> np.ndarray:
    """The sheet as a grey picture to print at 100 % (A4 landscape at ``dpi``)."""
    mm = dpi / 25.4
    w, h = int(PAGE_MM[0] * mm), int(PAGE_MM[1] * mm)
    img = np.full((h, w), 255, np.uint8)
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    side = int(round(MARKER_MM * mm))
    for marker_id, corners in marker_corners_mm().items():
        x, y = (corners[0] * mm).round().astype(int)
        img[y : y + side, x : x + side] = cv2.aruco.generateImageMarker(dictionary, marker_id, side)
    half = PLACE_MM * mm / 2
    font, size = cv2.FONT_HERSHEY_SIMPLEX, 0.6 * dpi / 150
    for face, (x, y) in place_centres_mm().items():
        cx, cy = x * mm, y * mm
        cv2.rectangle(img, (int(cx - half), int(cy - half)), (int(cx + half), int(cy + half)), 150, 2, cv2.LINE_AA)
        (tw, _), _ = cv2.getTextSize(face, font, size, 1)
        cv2.putText(img, face, (int(cx - tw / 2), int(cy + half + 4 * mm)), font, size, 90, 1, cv2.LINE_AA)
    note = "Crypt Companion teaching sheet - print at 100% (A4): a die on each place, face up as labelled"
    cv2.putText(img, note, (int(45 * mm), h - int(6 * mm)), font, 0.8 * size, 120, 1, cv2.LINE_AA)
    return img
