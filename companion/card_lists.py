"""Mausoleum's card list: the packaged one, or the one a table corrected and kept in the instance folder."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from .errors import BadInput
from .jsonfile import read_json

KEPT = "mausoleum-cards.json"


def packaged_cards() -> list[dict[str, Any]]:
    return json.loads(resources.files("companion").joinpath("data", KEPT).read_text())["cards"]


def kept_cards(instance: Path) -> list[dict[str, Any]]:
    """The table's own list if it corrected one, else the packaged list."""
    path = instance / KEPT
    if not path.exists():
        return packaged_cards()
    kept = read_json(path)
    if not isinstance(kept, dict) or not isinstance(kept.get("cards"), list):
        raise BadInput(f"{path}: not a card list (delete it to go back to the packaged one)")
    return kept["cards"]


def keep_cards(instance: Path, cards: list[dict[str, Any]]) -> None:
    """Write the table's list whole, then rename over the old one: a power cut leaves one or the other."""
    path = instance / KEPT
    spare = path.with_suffix(".json.new")
    spare.write_text(json.dumps({"cards": cards}, indent=1) + "\n")
    spare.replace(path)
