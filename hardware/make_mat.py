"""Draw the printable dice mat: 620 x 350 mm with ArUco DICT_4X4_50 markers 0-3 at the corners.

python hardware/make_mat.py hardware/mat.png   (150 dpi; print at 100 %, no scaling)
Marker 0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left, 40 mm each, 20 mm from the edges.
"""

import sys

import cv2
import numpy as np

DPI = 150
MM = DPI / 25.4
W_MM, H_MM, MARKER_MM, MARGIN_MM = 620, 350, 40, 20


def mat() -> np.ndarray:
    w, h = int(W_MM * MM), int(H_MM * MM)
    img = np.full((h, w), 255, np.uint8)
    side, margin = int(MARKER_MM * MM), int(MARGIN_MM * MM)
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    spots = [(margin, margin), (w - margin - side, margin), (w - margin - side, h - margin - side), (margin, h - margin - side)]
    for marker_id, (x, y) in enumerate(spots):
        img[y:y + side, x:x + side] = cv2.aruco.generateImageMarker(dictionary, marker_id, side)
    cv2.rectangle(img, (2, 2), (w - 3, h - 3), 180, 2)
    cv2.putText(img, "Crypt Companion dice mat - print at 100% (620 x 350 mm)", (margin, h - 8),
                cv2.FONT_HERSHEY_SIMPLEX, 0.9, 160, 2, cv2.LINE_AA)
    return img


if __name__ == "__main__":
    cv2.imwrite(sys.argv[1] if len(sys.argv) > 1 else "mat.png", mat())
