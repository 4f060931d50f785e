"""Dark Tomb on the page: the demo Stage and physical d20 entry go through the same Table commands."""

from __future__ import annotations

import json
from importlib import resources

from flask import Blueprint, jsonify

bp = Blueprint("tomb", __name__, url_prefix="/api/tomb")


def demo_stage() -> dict:
    return json.loads(resources.files("companion").joinpath("demo_stage.json").read_text())


@bp.get("/demo-stage")
def demo():
    return jsonify(demo_stage())
