"""The two pages: "/" for phones, "/kiosk" full-screen on the Pi; one template, one script."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, abort, current_app, render_template, send_from_directory

bp = Blueprint("pages", __name__)


@bp.get("/")
def phone():
    return render_template("page.html", kiosk=False)


@bp.get("/kiosk")
def kiosk():
    return render_template("page.html", kiosk=True)


@bp.get("/photos/<name>")
def photo(name: str):
    folder = Path(current_app.config["PHOTO_DIR"])
    if "/" in name or not (folder / name).is_file():
        abort(404)
    return send_from_directory(folder, name, max_age=0)
