"""Teach the pieces: one piece at a time on the board under the table camera, its type chosen, a few photos of each
type (each design owned), then learn the set from those whole frames.

The photos wait in the instance folder (teach-pieces/<type>/) until the set is learned or they are cleared; the set
learned is saved under the configured name ([sepulchre] set) and reads the graves at once.
"""

from __future__ import annotations

import re
from pathlib import Path

from flask import Blueprint, Response, current_app, jsonify

from ..errors import BadInput, DeviceError
from .auth import changes_table, json_body
from .teach import keep_photo, numbered

bp = Blueprint("teach_pieces", __name__)
PHOTOS_OF_EACH = 3  # photos a type wants: one piece, moved or another of its designs between them
ORDER = "order.txt"  # the photos kept, in the order taken


def _named(kind: str) -> str:
    """A type as the page names it."""
    return "rib comb" if kind == "ribs" else kind


def _folder() -> Path:
    return Path(current_app.instance_path) / "teach-pieces"


def _photos(kind: str) -> list[Path]:
    return numbered(_folder() / kind, "frame")


def _status(**extra) -> Response:
    from ..vision.pieces import PIECE_TYPES

    photos = {kind: len(_photos(kind)) for kind in PIECE_TYPES}
    return jsonify(photos=photos, needed=PHOTOS_OF_EACH, set=current_app.config["PIECE_SET"], **extra)


@bp.get("/api/pieces/teach")
def status():
    return _status()


@bp.post("/api/pieces/teach/photo")
@changes_table
def photo():
    """Photograph the board now, with one piece of the type chosen on it."""
    from ..vision.pieces import PIECE_TYPES

    kind = json_body().get("type")
    if kind not in PIECE_TYPES:
        raise BadInput(f"type must be one of {', '.join(PIECE_TYPES)}")
    referee = current_app.extensions["referee"]
    if referee.board_camera is None:
        raise DeviceError("no camera: the pieces are taught from the table camera's photos")
    kept = keep_photo(referee.board_camera.capture(), _folder() / kind, "frame")
    with (_folder() / ORDER).open("a") as order:  # what "take back" takes back, newest last
        order.write(f"{kind}/{kept.name}\n")
    return _status()


@bp.post("/api/pieces/teach/undo")
@changes_table
def undo():
    """Take back the last photo taken (a piece photographed as the wrong type), the others kept."""
    order = _folder() / ORDER
    taken = [
        line for line in (order.read_text().splitlines() if order.is_file() else []) if (_folder() / line).is_file()
    ]
    if not taken:
        raise BadInput("no photo to take back")
    (_folder() / taken[-1]).unlink()
    order.write_text("".join(f"{line}\n" for line in taken[:-1]))
    return _status(taken_back=taken[-1].split("/")[0])


@bp.post("/api/pieces/teach/clear")
@changes_table
def clear():
    from ..vision.pieces import PIECE_TYPES

    for kind in PIECE_TYPES:
        for path in _photos(kind):
            path.unlink(missing_ok=True)
    (_folder() / ORDER).unlink(missing_ok=True)
    return _status()


@bp.post("/api/pieces/teach/learn")
@changes_table
def learn():
    """Learn the set from the photos taken (warped flat first where the graves are a board map), save it, and read
    the graves with it from now on."""
    from ..vision.graves import board_of
    from ..vision.pieces import PIECE_TYPES, PieceReader, graves_reading

    json_body()  # a change like any other: JSON in, JSON out
    referee = current_app.extensions["referee"]
    if referee.graves is None:
        raise DeviceError("no graves to read: set [sepulchre] graves (GRAVES.json) first")
    missing = [kind for kind in PIECE_TYPES if not _photos(kind)]
    if missing:
        named = _named(missing[0])
        raise BadInput(f"no photo of a {named} yet: lay one alone on the board and photograph it as a {named}")
    try:
        reader = PieceReader.enroll(_folder(), board_of(referee.graves))
    except BadInput as error:  # it names the photo's file: name it as the page does
        said = str(error).replace(f"{_folder()}/", "")
        raise BadInput(re.sub(r"(\w+)/frame-(\d+)\.jpg", lambda m: f"the {_named(m[1])} photo {m[2]}", said)) from None
    name = current_app.config["PIECE_SET"]
    reader.save(name)
    referee.piece_reader = graves_reading(reader, referee.graves)
    return _status(learned=reader.photos)
