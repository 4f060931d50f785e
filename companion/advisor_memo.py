"""The advisor's remembered search on disk: written by bench/advisor.py --write-memo, read at start.

It ships inside the package (companion/data/), so a pip-installed Pi has it. A
fingerprint of the search's code and settings guards it: after any change to
them the file is ignored (and the advisor searches cold) until it is rewritten.
"""

from __future__ import annotations

import ast
import hashlib
import threading
import zipfile
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from .games.rolling_bones import advisor, dice, layout, memo, skeleton_masks, throws
from .games.rolling_bones.advisor import Advisor
from .games.rolling_bones.memo import MemoTable

MEMO_FILE = Path(__file__).resolve().parent / "data" / "advisor-points.npz"


# CPython 3.11 keeps ast.parse's depth count per interpreter, not per thread: two threads parsing
# at once raise "AST constructor recursion depth mismatch" (python/cpython#106905). One parse a process.
_PARSING = threading.Lock()


def fingerprint() -> str:
    with _PARSING:
        return _fingerprint()


@lru_cache(maxsize=1)
def _fingerprint() -> str:
    digest = hashlib.sha256()
    for module in (advisor, dice, layout, memo, skeleton_masks, throws):
        # The code, not its layout: reformatting or a comment leaves the stored search valid.
        digest.update(ast.dump(ast.parse(Path(str(module.__file__)).read_text())).encode())
    digest.update(repr((advisor.MAX_OUTCOMES, advisor.SAMPLES, advisor.MAX_FULL_LAYS, advisor.BIG_THROW)).encode())
    return digest.hexdigest()[:16]


def save(search: Advisor, path: Path = MEMO_FILE) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    table = MemoTable.from_memo(search._pre, search._post)
    arrays: dict[str, Any] = {"fingerprint": np.array(fingerprint()), **table.arrays()}
    np.savez_compressed(path, **arrays)
    return path


def load(path: Path = MEMO_FILE) -> tuple[MemoTable | None, str]:
    """The table, or None and why not (missing, unreadable, or made by other code)."""
    if not path.is_file():
        return None, f"no remembered search at {path}"
    try:
        with np.load(path) as data:
            if str(data["fingerprint"]) != fingerprint():
                return None, "the remembered search was made by other advisor code: run bench/advisor.py --write-memo"
            return MemoTable(**{name: data[name] for name in MemoTable.__dataclass_fields__}), "ok"
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as error:
        return None, f"cannot read {path}: {error}"


@lru_cache(maxsize=1)
def _shipped() -> MemoTable | None:
    return load()[0]  # read once per process: every app and CLI call shares the (read-only) arrays


def points_advisor() -> Advisor:
    """An expected-points advisor that starts from the remembered search when there is one."""
    return Advisor(table=_shipped())
