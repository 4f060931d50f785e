"""Sepulchre on the page: override a rule flag (recorded with its reason)."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify

from ..errors import BadInput
from .auth import changes_table, json_body
from .live import snapshot

bp = Blueprint("sepulchre", __name__, url_prefix="/api/sepulchre")


@bp.post("/override")
@changes_table
def override():
    reason = json_body().get("reason")
    if not isinstance(reason, str) or not reason.strip():
        raise BadInput("say why you override the rule (it is recorded)")
    current_app.extensions["referee"].override(reason.strip())
    return jsonify(snapshot())
