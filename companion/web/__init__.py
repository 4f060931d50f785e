"""The web page: Flask application factory; one blueprint per area."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from flask import Flask, jsonify, request

from ..errors import CompanionError, DeviceError, IllegalPlay
from .hosts import addressed_here, names_of_this_machine
from .throttle import WrongPins

MAX_UPLOAD_BYTES = 8 * 1024 * 1024  # photos and scenarios; more is refused with 413


def create_app(table, referee, config: dict[str, Any] | None = None, instance_path: str | Path | None = None) -> Flask:
    """Build the app around its collaborators: the Table, the Referee (camera, reader) and config."""
    app = Flask(__name__, instance_path=str(instance_path) if instance_path else None, instance_relative_config=True)
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    app.config.update(
        SECRET_KEY=_secret_key(Path(app.instance_path)),
        MAX_CONTENT_LENGTH=MAX_UPLOAD_BYTES,
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_HTTPONLY=True,
        TABLE_PIN=str((config or {}).get("server", {}).get("pin", "") or ""),
        PHOTO_DIR=str(Path(app.instance_path) / "photos"),
        DICE_SET=str((config or {}).get("dice", {}).get("set", "demo")),
        PIECE_SET=str((config or {}).get("sepulchre", {}).get("set", "demo")),
        RUN_ID=secrets.token_hex(16),  # a phone's session lasts one run of the server (see auth.seal)
    )
    app.extensions["table"] = table
    app.extensions["referee"] = referee
    app.extensions["wrong_pins"] = WrongPins()
    host_names = names_of_this_machine((config or {}).get("server", {}).get("hosts", ()))
    app.extensions["host_names"] = host_names  # the live server (web/stream.py) checks the same names

    @app.before_request
    def addressed_to_the_pi():
        if not addressed_here(request.host, host_names):
            return jsonify(error=f"this is the table's server, not {request.host!r} (add it to [server] hosts)"), 400
        return None

    from . import auth, bones, ghosts, live, mausoleum, pages, sepulchre, teach, teach_pieces, tomb

    app.extensions["advisor"] = bones.AdvisorDesk()
    app.extensions["live_slots"] = live.Slots(live.STREAMS_MOST)

    blueprints = (pages, live, auth, bones, tomb, sepulchre, ghosts, mausoleum, teach, teach_pieces)
    for blueprint in (module.bp for module in blueprints):
        app.register_blueprint(blueprint)

    @app.errorhandler(CompanionError)
    def refused(error: CompanionError):
        # A missing camera or reader is a refusal of this request, not a server fault: 409, never 5xx.
        status = 409 if isinstance(error, (IllegalPlay, DeviceError)) else 400
        return jsonify(error=str(error)), status

    @app.errorhandler(500)
    def internal(_error):
        # a bug, not the person's mistake: say so in one line; the log has the details
        return jsonify(error="internal error: the table is fine, this request was not done"), 500

    @app.errorhandler(413)
    def too_large(_error):
        return jsonify(error=f"upload too large: at most {MAX_UPLOAD_BYTES // (1024 * 1024)} MB"), 413

    @app.errorhandler(404)
    def not_found(_error):
        return jsonify(error="no such page"), 404

    @app.errorhandler(405)
    def wrong_method(_error):
        return jsonify(error="method not allowed here"), 405

    return app


def _secret_key(instance: Path) -> bytes:
    """Sessions are signed with a secret made once per install and kept in the instance folder."""
    path = instance / "secret_key"
    if not path.exists():
        path.write_bytes(secrets.token_bytes(32))
        path.chmod(0o600)
    return path.read_bytes()
