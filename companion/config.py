"""Configuration: packaged TOML defaults, overridden key by key by a user's file."""

from __future__ import annotations

import os
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from .errors import BadInput


def _merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def defaults() -> dict[str, Any]:
    text = resources.files("companion").joinpath("defaults.toml").read_text()
    return tomllib.loads(text)


def load(user_file: str | os.PathLike | None = None) -> dict[str, Any]:
    """Defaults, then the user's file if given (a missing or broken file is a BadInput)."""
    config = defaults()
    if user_file is None:
        return config
    path = Path(user_file)
    try:
        override = tomllib.loads(path.read_text())
    except FileNotFoundError:
        raise BadInput(f"config file not found: {path}") from None
    except tomllib.TOMLDecodeError as error:
        raise BadInput(f"config file {path} is not valid TOML: {error}") from None
    return _merge(config, override)


def data_dir() -> Path:
    """Where the game database lives unless the config says otherwise."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "crypt-companion"


def store_path(config: dict[str, Any]) -> Path:
    configured = config.get("store", {}).get("path") or ""
    return Path(configured) if configured else data_dir() / "table.sqlite3"
