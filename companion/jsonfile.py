"""Reading a person's JSON file, with one-line errors."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from .errors import BadInput


def read_json(path: str | Path) -> Any:
    """Parse the JSON in ``path`` ("-" for standard input)."""
    name = str(path)
    try:
        text = sys.stdin.read() if name == "-" else Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BadInput(f"{name}: no such file") from None
    except IsADirectoryError:
        raise BadInput(f"{name}: is a folder, not a JSON file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise BadInput(f"{name}: cannot read: {error}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise BadInput(f"{name}: not valid JSON: {error.msg} at line {error.lineno} column {error.colno}") from None
