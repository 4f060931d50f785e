"""Rolling Bones on the page: start a game, throw, lay, pay, bury, name a die."""

from __future__ import annotations

import threading
from pathlib import Path

from flask import Blueprint, current_app, jsonify, request

from ..advisor_memo import points_advisor
from ..card_lists import kept_cards
from ..errors import BadInput
from ..games.rolling_bones import Layout, best_layout
from ..games.rolling_bones.advice import SearchTooLong, advice_for, state_of_match
from ..games.rolling_bones.dice import FACES
from ..vocabulary import BUTTONS
from .auth import changes_table, json_body
from .live import snapshot

bp = Blueprint("bones", __name__, url_prefix="/api")


def _table():
    return current_app.extensions["table"]


@bp.post("/command")
@changes_table
def command():
    """Any table command as JSON, the same ones the buttons send."""
    _table().dispatch(json_body())
    return jsonify(snapshot())


@bp.post("/new-game")
@changes_table
def new_game():
    body = json_body()
    game = body.get("game")
    setup = body.get("setup", {})
    if not isinstance(setup, dict):
        raise BadInput("setup must be a JSON object")
    if game == "mausoleum" and "cards" not in setup:  # the card list this table keeps (its corrections)
        setup = {**setup, "cards": kept_cards(Path(current_app.instance_path))}
    _table().new_game(game, setup)
    return jsonify(snapshot())


@bp.post("/undo")
@changes_table
def undo():
    _table().undo()
    return jsonify(snapshot())


@bp.post("/button/<name>")
@changes_table
def button(name: str):
    """The page's copy of the arcade buttons: the same request a press makes."""
    referee = current_app.extensions["referee"]
    if name not in BUTTONS:
        raise BadInput(f"no button called {name!r}")
    referee.handle(name)
    return jsonify(snapshot())


@bp.post("/bones/throw")
@changes_table
def virtual_throw():
    """No camera? The companion throws the dice for you (its random source, recorded as the roll)."""
    table = _table()
    if table.game != "rolling-bones":
        raise BadInput("no Rolling Bones game on the table")
    table.dispatch({"type": "throw"})
    return jsonify(snapshot())


@bp.post("/bones/name-die")
@changes_table
def name_die():
    body = json_body()
    face = body.get("face")
    index = body.get("index")
    if not isinstance(face, str) or face not in FACES or not isinstance(index, int) or isinstance(index, bool):
        raise BadInput("name a die with its index and a face id")
    current_app.extensions["referee"].name_die(index, face)
    return jsonify(snapshot())


@bp.get("/bones/best")
def best():
    """The best layout for the dice on the table now (the page shows it as a hint)."""
    table = _table()
    if table.game != "rolling-bones" or table.state.turn.phase != "lay":
        return jsonify(best=None)
    turn = table.state.turn
    layout: Layout = best_layout(list(turn.loose), turn.layout)
    return jsonify(best={"score": layout.score().total, "layout": layout.to_json(), "can_bury": turn.can_bury()})


# Throws one page request may weigh (~5 s here, longer on a Pi): a search that would run past
# it answers from the coarse search instead of holding a core (and the GIL) for minutes.
PAGE_BUDGET = 20_000


class AdvisorDesk:
    """The app's advisor: one warm memo, and one search at a time (they share the memo)."""

    def __init__(self) -> None:
        self.advisor = points_advisor()
        self.busy = threading.Lock()


@bp.get("/bones/advice")
def advice():
    """The advisor's play for the dice on the table (expected points, and the chance to win)."""
    table = _table()
    state = state_of_match(table.state) if table.game == "rolling-bones" else None
    if state is None:
        return jsonify(advice=None)
    desk: AdvisorDesk = current_app.extensions["advisor"]
    # While a search runs, others hear "busy" at once rather than queueing up work for
    # states the table has already left.
    if not desk.busy.acquire(blocking=False):
        return jsonify(advice=None, busy=True)
    try:
        win = request.args.get("win", "1") != "0"  # ?win=0: the points play alone, at once
        return jsonify(advice=advice_for(state, desk.advisor, throws=PAGE_BUDGET, win=win))
    except SearchTooLong:
        return jsonify(advice=None, why="no advice for this roll: the search ran too long")
    finally:
        desk.busy.release()
