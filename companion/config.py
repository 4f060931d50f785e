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
    """Every setting there is, with its default: defaults.toml, and the pin map under [pins]."""
    package = resources.files("companion")
    config = tomllib.loads(package.joinpath("defaults.toml").read_text())
    config["pins"] = tomllib.loads(package.joinpath("pins.toml").read_text())
    return config


def _check_keys(known: dict[str, Any], given: dict[str, Any], path: Path, where: str = "") -> None:
    """A key the defaults do not have is a typo or a setting that does not exist: say which."""
    for key, value in given.items():
        name = f"{where}.{key}" if where else key
        if key not in known:
            raise BadInput(
                f"config file {path}: unknown setting {name!r} "
                f"(known{' in [' + where + ']' if where else ''}: {', '.join(sorted(known))})"
            )
        if isinstance(known[key], dict):
            if not isinstance(value, dict):
                raise BadInput(f"config file {path}: {name} must be a [{name}] table")
            _check_keys(known[key], value, path, name)
        elif not _same_kind(known[key], value):
            raise BadInput(
                f"config file {path}: {name} must be {_KINDS[type(known[key])]} like its default "
                f"{_toml(known[key])}, not {_toml(value)}"
            )


_KINDS = {bool: "true or false", int: "a whole number", float: "a number", str: "text in quotes", list: "a list"}


def _same_kind(default: Any, value: Any) -> bool:
    """A setting takes the kind of value its default has (a whole number where a number goes)."""
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(default, bool) and isinstance(value, bool)
    if isinstance(default, float):
        return isinstance(value, (int, float))
    if isinstance(default, list) and isinstance(value, list):  # an empty default list ([server] hosts) holds text
        return all(_same_kind(default[0] if default else "", item) for item in value)
    return isinstance(value, type(default))


def _toml(value: Any) -> str:
    text = f'"{value}"' if isinstance(value, str) else str(value).lower() if isinstance(value, bool) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


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
    _check_keys(config, override, path)
    return _merge(config, override)


def data_dir() -> Path:
    """Where the game database lives unless the config says otherwise."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "crypt-companion"


def store_path(config: dict[str, Any]) -> Path:
    configured = config.get("store", {}).get("path") or ""
    return Path(configured) if configured else data_dir() / "table.sqlite3"
