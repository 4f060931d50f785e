"""Pure rules engines: no I/O, no clock, no global random."""

from __future__ import annotations

from typing import Any


def as_recorded(command: dict[str, Any], *keys: str) -> dict[str, Any]:
    """What the log keeps of an accepted command: its type and the keys its rule reads (nothing stray)."""
    return {"type": command["type"], **{key: command[key] for key in keys if key in command}}
