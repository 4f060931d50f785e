"""Ghosts in the Graveyard on the page: the helper's advice for one player (their hand stays on their phone)."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, request

from ..errors import BadInput, IllegalPlay
from ..games.ghosts.advice import advice
from ..games.ghosts.board import tombstone

bp = Blueprint("ghosts", __name__, url_prefix="/api/ghosts")
MOST_HAND = 5


@bp.get("/advice")
def advise():
    """?player=NAME (default: whose turn it is), ?over=T (the card to play: score every legal light), ?hand=7,31."""
    table = current_app.extensions["table"]
    with table.lock:
        if table.game != "ghosts":
            raise IllegalPlay("no Ghosts in the Graveyard game on the table")
        game = table.state
    name = request.args.get("player")
    seat = game.current if name is None else game.seat(name)
    over = _number(request.args["over"]) if request.args.get("over") else None
    hand = [_number(n) for n in request.args.get("hand", "").replace(" ", "").split(",") if n]
    if len(hand) > MOST_HAND:
        raise BadInput(f"a hand holds at most {MOST_HAND} cards")
    return jsonify(advice(game, seat, over, frozenset(hand)))


def _number(text: str) -> int:
    if not text.isascii() or not text.isdigit() or len(text) > 2:
        raise BadInput(f"a tombstone is a whole number 1-50, not {text[:8]!r}")
    return tombstone(int(text))
