"""Enrolled sets on disk: models/<kind>/<name>/set.npz plus a readable set.json."""

from __future__ import annotations

import difflib
import json
import os
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import BadInput

SET_FILE = "set.npz"


def models_dir() -> Path:
    """Where sets live: $COMPANION_MODELS, else the repo's models/ folder, else the user's data folder."""
    if os.environ.get("COMPANION_MODELS"):
        return Path(os.environ["COMPANION_MODELS"])
    repo_models = Path(__file__).resolve().parents[2] / "models"
    if repo_models.is_dir():
        return repo_models
    from ..config import data_dir

    return data_dir() / "models"


MAX_NAME = 64  # characters in a set's name (it is a folder's name)


def safe_name(name: str) -> str:
    if not name or not all(ch.isalnum() or ch in "-_." for ch in name) or name.startswith("."):
        raise BadInput(f"a set name is letters, digits, - _ . only, not {name!r}")
    if len(name) > MAX_NAME:
        raise BadInput(f"a set name is at most {MAX_NAME} characters, not {len(name)}")
    return name


PHOTO_SUFFIXES = {".jpg", ".jpeg", ".png"}


def enrollment_photos(folder: Path, names: tuple[str, ...] | list[str], what: str):
    """Yield (name, path, image) for DIR/<name>/*.jpg, every name required; one-line errors otherwise."""
    folder = Path(folder)
    if not folder.is_dir():
        raise BadInput(f"{folder}: no such folder of enrollment photos")
    missing = [
        n
        for n in names
        if not (folder / n).is_dir() or not any(p.suffix.lower() in PHOTO_SUFFIXES for p in (folder / n).iterdir())
    ]
    if missing:
        raise BadInput(
            f"{folder}: no photos for {what} {missing[0]!r} (expected {folder}/<{what}>/*.jpg"
            f"{f'; {len(missing)} missing' if len(missing) > 1 else ''}){_misnamed(folder, names, what)}"
        )
    for name in names:
        for path in sorted(p for p in (folder / name).iterdir() if p.suffix.lower() in PHOTO_SUFFIXES):
            yield name, path, read_photo(path)


def _misnamed(folder: Path, names: tuple[str, ...] | list[str], what: str) -> str:
    """The first of the folder's subfolders that is no name, with the name it may have meant: a folder named
    "Left_Hand" for left-hand is the likeliest slip."""
    strangers = sorted(p.name for p in folder.iterdir() if p.is_dir() and p.name not in names)
    if not strangers:
        return ""

    def folded(name: str) -> str:  # the name as a slip may spell it: any case, with or without - _ and spaces
        return "".join(ch for ch in name.lower() if ch not in "-_ ")

    meant = {folded(n): n for n in names}.get(folded(strangers[0]))
    meant = meant or next(iter(difflib.get_close_matches(strangers[0], names, n=1)), None)
    return f"; {strangers[0]!r} is no {what}" + (f": rename it {meant!r}" if meant else "")


def read_photo(path: Path):
    """An enrollment photo as BGR, or a one-line error naming it."""
    import cv2

    image = cv2.imread(str(path))
    if image is None:
        raise BadInput(f"{path}: not an image")
    return image


def enroll_again(kind: str, name: str, why: str) -> BadInput:
    """The error for a saved set that cannot be read as it is, saying how to make it again."""
    return BadInput(f"{why}: enroll it again (companion {kind} enroll --set {name} DIR)")


def save_set(kind: str, name: str, arrays: dict[str, Any], summary: dict[str, Any]) -> Path:
    folder = models_dir() / kind / safe_name(name)
    folder.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(folder / SET_FILE, **arrays)
    (folder / "set.json").write_text(json.dumps(summary, indent=1))
    return folder


def load_set(kind: str, name: str, what: str) -> Any:
    """The arrays of a saved set, or a one-line error saying how to enroll it."""
    path = models_dir() / kind / safe_name(name) / SET_FILE
    if not path.is_file():
        raise BadInput(f"no {what} set {name!r} (enroll one: companion {kind} enroll --set {name} DIR)")
    damaged = enroll_again(kind, name, f"{what} set {name!r} is damaged ({path})")
    try:
        with np.load(path, allow_pickle=False) as data:
            return SavedSet(damaged, {key: data[key] for key in data.files})
    except (OSError, ValueError, EOFError, zipfile.BadZipFile):
        raise damaged from None


class SavedSet(dict):
    """A saved set's arrays; one it lacks is the same one-line error as a file that will not load."""

    def __init__(self, damaged: BadInput, arrays: dict[str, Any]) -> None:
        super().__init__(arrays)
        self.damaged = damaged

    def __missing__(self, key: str) -> Any:
        raise self.damaged
