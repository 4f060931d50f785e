"""The SQLite event log: every accepted action, in order, per game session.

State is a replay of events; undo is an event too. WAL with synchronous=FULL
means an append that returned is on disk: a power cut loses at most the
command in flight.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import StoreError

UNDO = "undo"
WITHDRAWN = "withdrawn"  # a game replaced by mistake and taken back: its session is passed over from then on

_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id      INTEGER PRIMARY KEY,
    game    TEXT NOT NULL,
    setup   TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    seq        INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    kind       TEXT NOT NULL,
    payload    TEXT NOT NULL,
    at         REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS events_by_session ON events(session_id, seq);
"""


@dataclass(frozen=True)
class Event:
    seq: int
    session_id: int
    kind: str
    payload: dict[str, Any]
    at: float


@dataclass(frozen=True)
class Session:
    id: int
    game: str
    setup: dict[str, Any]
    created: float


class EventStore:
    """An append-only log in one SQLite file; safe to share between threads."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._lock = threading.Lock()
        try:
            if str(self.path) != ":memory:":
                self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(_SCHEMA)
        except (sqlite3.Error, OSError) as error:
            raise StoreError(f"cannot open the game database {self.path}: {error}") from None

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _write(self, sql: str, args: tuple) -> int:
        with self._lock:
            try:
                cursor = self._db.execute(sql, args)
            except sqlite3.Error as error:
                raise StoreError(f"cannot write to the game database: {error}") from None
            assert cursor.lastrowid is not None  # an INSERT always sets it
            return cursor.lastrowid

    def new_session(self, game: str, setup: dict[str, Any]) -> Session:
        created = time.time()
        session_id = self._write(
            "INSERT INTO sessions (game, setup, created) VALUES (?, ?, ?)",
            (game, json.dumps(setup, sort_keys=True), created),
        )
        return Session(session_id, game, setup, created)

    def append(self, session_id: int, kind: str, payload: dict[str, Any]) -> Event:
        """Write one event durably and return it; only then may it be acknowledged."""
        at = time.time()
        seq = self._write(
            "INSERT INTO events (session_id, kind, payload, at) VALUES (?, ?, ?, ?)",
            (session_id, kind, json.dumps(payload, sort_keys=True), at),
        )
        return Event(seq, session_id, kind, payload, at)

    def session(self, session_id: int) -> Session | None:
        with self._lock:
            row = self._db.execute(
                "SELECT id, game, setup, created FROM sessions WHERE id = ?", (session_id,)
            ).fetchone()
        return Session(row[0], row[1], json.loads(row[2]), row[3]) if row else None

    def latest_session(self, game: str | None = None, before: int | None = None) -> Session | None:
        """The latest session not withdrawn (of ``game``; started before session ``before``)."""
        sql = f"SELECT id FROM sessions s WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.session_id = s.id AND e.kind = '{WITHDRAWN}')"
        args: list[Any] = []
        if game:
            sql, args = sql + " AND game = ?", [*args, game]
        if before is not None:
            sql, args = sql + " AND id < ?", [*args, before]
        with self._lock:
            row = self._db.execute(sql + " ORDER BY id DESC LIMIT 1", tuple(args)).fetchone()
        return self.session(row[0]) if row else None

    def events(self, session_id: int, after: int = 0) -> list[Event]:
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, session_id, kind, payload, at FROM events WHERE session_id = ? AND seq > ? ORDER BY seq",
                (session_id, after),
            ).fetchall()
        return [Event(r[0], r[1], r[2], json.loads(r[3]), r[4]) for r in rows]

    def integrity_ok(self) -> bool:
        with self._lock:
            return self._db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def effective_actions(events: list[Event]) -> list[Event]:
    """The actions still in force: each undo event cancels the latest action before it."""
    stack: list[Event] = []
    for event in events:
        if event.kind == UNDO:
            if stack:
                stack.pop()
        else:
            stack.append(event)
    return stack
