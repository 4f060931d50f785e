"""Teach the dice: print the teaching sheet, photograph it with the dice laid on (three times), learn the set.

The photos wait in the instance folder (teach/) until the set is learned or they are cleared; the set
learned is saved under the configured name ([dice] set) and read from at once.
"""

from __future__ import annotations

from pathlib import Path

import cv2
from flask import Blueprint, Response, current_app, jsonify

from ..errors import BadInput, DeviceError
from .auth import changes_table, json_body

bp = Blueprint("teach", __name__)
PHOTOS_TO_TEACH = 3  # one photo teaches every face once; three, the dice re-laid between them, teach them well


def _folder() -> Path:
    return Path(current_app.instance_path) / "teach"


def _photos() -> list[Path]:
    return numbered(_folder(), "sheet")


def _status(**extra) -> Response:
    return jsonify(photos=len(_photos()), needed=PHOTOS_TO_TEACH, set=current_app.config["DICE_SET"], **extra)


@bp.get("/teaching-sheet.png")
def sheet():
    from ..vision.teaching_sheet import sheet_image

    ok, png = cv2.imencode(".png", sheet_image())
    return Response(png.tobytes(), mimetype="image/png")


@bp.get("/api/dice/teach")
def status():
    return _status()


@bp.post("/api/dice/teach/photo")
@changes_table
def photo():
    """Photograph the sheet now; a photo in which the sheet's markers are not seen is refused, not kept."""
    from ..vision.teaching_sheet import places_in_photo

    camera = current_app.extensions["referee"].camera
    if camera is None:
        raise DeviceError("no camera: the dice are taught from the table camera's photos")
    image = camera.capture()
    places_in_photo(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), "the photo")
    keep_photo(image, _folder(), "sheet")
    return _status()


def _number(path: Path) -> int:
    """N of a photo kept as ``stem-N.jpg``."""
    return int(path.stem.rsplit("-", 1)[1])


def numbered(folder: Path, stem: str) -> list[Path]:
    """The photos ``folder/stem-N.jpg`` kept so far, by N."""
    return sorted(folder.glob(f"{stem}-*.jpg"), key=_number)


def keep_photo(image, folder: Path, stem: str) -> Path:
    """A photo kept as the next ``folder/stem-N.jpg``."""
    folder.mkdir(parents=True, exist_ok=True)
    taken = numbered(folder, stem)
    path = folder / f"{stem}-{_number(taken[-1]) + 1 if taken else 1}.jpg"
    cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return path


@bp.post("/api/dice/teach/clear")
@changes_table
def clear():
    for path in _photos():
        path.unlink(missing_ok=True)
    return _status()


@bp.post("/api/dice/teach/learn")
@changes_table
def learn():
    """Learn the set from the photos taken, save it, and read the table with it from now on."""
    from ..vision.reader import DiceReader

    json_body()  # a change like any other: JSON in, JSON out
    if not _photos():
        raise BadInput("no photos of the teaching sheet yet: take one (three is best)")
    reader = DiceReader.enroll(_folder())
    name = current_app.config["DICE_SET"]
    reader.save(name)
    current_app.extensions["referee"].reader = reader.read
    return _status(
        learned=reader.photos_learned(),
        die_side=round(reader.photo_die_side, 1),
        left_out=reader.left_out,
        warning=reader.size_warning(),
    )
