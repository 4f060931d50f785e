"""Mausoleum on the page: the table's card list, corrected once and kept for its next games."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, current_app, jsonify

from ..card_lists import keep_cards, kept_cards
from ..errors import IllegalPlay
from .auth import changes_table, json_body
from .live import snapshot

bp = Blueprint("mausoleum", __name__, url_prefix="/api/mausoleum")


@bp.get("/cards")
def cards():
    return jsonify(cards=kept_cards(Path(current_app.instance_path)))


@bp.post("/correct")
@changes_table
def correct():
    """A card's name or value from the table's own deck: logged in this game, kept for the next ones."""
    table = current_app.extensions["table"]
    body = json_body()
    with table.lock:
        if table.game != "mausoleum":
            raise IllegalPlay("no Mausoleum game on the table")
        table.dispatch({"type": "correct", **{k: body.get(k) for k in ("card", "value", "name")}})
        keep_cards(Path(current_app.instance_path), table.view()["cards"])
    return jsonify(snapshot())
