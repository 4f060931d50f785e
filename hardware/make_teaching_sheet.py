"""Draw the printable teaching sheet: A4 landscape, a labelled place per die face, ArUco markers 4-7 at the corners.

python hardware/make_teaching_sheet.py hardware/teaching-sheet.png   (150 dpi; print at 100 %, no scaling)
The layout and drawing are companion/vision/teaching_sheet.py's (the page serves the same sheet).
"""

import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.vision.teaching_sheet import sheet_image  # noqa: E402

if __name__ == "__main__":
    cv2.imwrite(sys.argv[1] if len(sys.argv) > 1 else "teaching-sheet.png", sheet_image())
