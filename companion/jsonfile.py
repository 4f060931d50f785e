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
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise BadInput(f"{name}: not valid JSON: {error.msg} at line {error.lineno} column {error.colno}") from None
    except ValueError as error:  # a number of more than 4,300 digits
        raise BadInput(f"{name}: not valid JSON: {error}") from None
    except RecursionError:
        raise BadInput(f"{name}: nested more than {MAX_NESTING} deep") from None
    if too_deep(value):
        raise BadInput(f"{name}: nested more than {MAX_NESTING} deep")
    return value


MAX_NESTING = 64  # lists and objects in one another: no setup, scenario or command needs more than a few


def too_deep(value: Any, limit: int = MAX_NESTING) -> bool:
    """Whether lists and objects nest more than ``limit`` deep in ``value`` (walked without recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth > limit:
                return True
            stack.extend((inner, depth + 1) for inner in (item.values() if isinstance(item, dict) else item))
    return False
