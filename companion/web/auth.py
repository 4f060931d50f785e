"""Who may change the game: the Pi itself, or a phone that entered the table PIN.

Every change is a JSON POST carrying the session's CSRF token in a header,
so another site cannot make a browser on the network change the table. A phone's
right to change the game is sealed to the PIN it entered, its address and this run
of the server: a new PIN, a restart or another address asks for the PIN again.
Wrong PINs make a client wait (throttle.py).
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import math
import secrets
from pathlib import Path

from flask import Blueprint, current_app, jsonify, request, session

bp = Blueprint("auth", __name__)

LOOPBACK = {"127.0.0.1", "::1", "localhost"}


def from_the_pi() -> bool:
    return (request.remote_addr or "") in LOOPBACK


def same(sent: str, expected: str) -> bool:
    """A constant-time comparison that takes any text a client sends (compare_digest refuses non-ASCII str)."""
    return hmac.compare_digest(sent.encode("utf-8", "surrogatepass"), expected.encode("utf-8", "surrogatepass"))


def csrf_ok() -> bool:
    sent = request.headers.get("X-CSRF-Token", "")
    return bool(sent) and same(sent, session.get("csrf", ""))


def csrf_token() -> str:
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(24)
    return session["csrf"]


def table_pin() -> str:
    path = Path(current_app.instance_path) / "table_pin"
    return path.read_text().strip() if path.exists() else current_app.config["TABLE_PIN"]


def seal() -> str:
    """What a phone's session holds once it entered the PIN: good for this PIN, address and run of the server."""
    bound = f"{table_pin()}|{request.remote_addr}|{current_app.config['RUN_ID']}".encode("utf-8", "surrogatepass")
    return hmac.new(current_app.config["SECRET_KEY"], bound, hashlib.sha256).hexdigest()


def may_change() -> bool:
    held = session.get("table")
    return from_the_pi() or (isinstance(held, str) and bool(table_pin()) and same(held, seal()))


def changes_table(view):
    """Guard a route that changes anything: PIN (unless on the Pi) and CSRF token."""

    @functools.wraps(view)
    def guarded(*args, **kwargs):
        if not csrf_ok():
            return jsonify(error="stale page: reload it and try again (missing CSRF token)"), 403
        if not may_change():
            return jsonify(error="enter the table PIN to change the game"), 403
        return view(*args, **kwargs)

    return guarded


def json_body() -> dict:
    from ..errors import BadInput
    from ..jsonfile import MAX_NESTING, too_deep

    too_deep_error = BadInput(f"the request body nests more than {MAX_NESTING} deep")
    try:
        data = request.get_json(silent=True)
    except RecursionError:  # deeper than the parser goes
        raise too_deep_error from None
    if not isinstance(data, dict):
        raise BadInput("the request body must be a JSON object")
    if too_deep(data):
        raise too_deep_error
    return data


@bp.post("/api/login")
def login():
    if not csrf_ok():
        return jsonify(error="stale page: reload it and try again (missing CSRF token)"), 403
    pin = str(json_body().get("pin", ""))
    expected = table_pin()
    if not expected:
        return jsonify(error="no table PIN is set yet: set one on the Pi's own screen"), 403
    wrong_pins, client = current_app.extensions["wrong_pins"], request.remote_addr or ""
    wait = wrong_pins.wait(client)
    if wait > 0:
        return jsonify(error=f"too many wrong PINs: try again in {math.ceil(wait)} s"), 429
    if not same(pin, expected):
        wrong_pins.wrong(client)
        return jsonify(error="wrong PIN"), 403
    wrong_pins.right(client)
    session["table"] = seal()
    return jsonify(ok=True)


@bp.post("/api/pin")
@changes_table
def set_pin():
    from ..errors import BadInput

    if not from_the_pi():
        return jsonify(error="the table PIN is set on the Pi's own screen"), 403
    pin = str(json_body().get("pin", ""))
    if not (pin.isascii() and pin.isdigit() and 4 <= len(pin) <= 8):  # isdigit() alone takes "²³⁴⁵"
        raise BadInput("a table PIN is 4 to 8 digits, 0-9")
    path = Path(current_app.instance_path) / "table_pin"
    path.write_text(pin)
    path.chmod(0o600)
    return jsonify(ok=True)
