"""The live table: the one owner of state.

Commands come in from any thread (buttons, web, camera) through ``dispatch``;
each is checked by the game engine, written to the event log, applied, and
only then acknowledged and published on the bus. Beside the game the table keeps
the referee's desk (its status, notice, the latest reading, a flagged Sepulchre
reading): changed only through ``update_desk``, logged the same way, so a restart
shows what the page showed.
"""

from __future__ import annotations

import copy
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from .bus import EventBus
from .errors import BadInput, IllegalPlay
from .store import UNDO, WITHDRAWN, EventStore, Session, effective_actions
from .vocabulary import READY

DESK = "desk"  # event kind: the referee's whole desk after a change (never a game action: undo skips it)
IDLE_DESK: dict[str, Any] = {
    "status": READY,
    "notice": "",
    "reading": None,
    "flagged_graves": None,
    "graves_photo": None,
}


class GameRules(Protocol):
    """What the Table needs from a game: start, apply a command, show the state."""

    name: str

    def start(self, setup: dict[str, Any]) -> Any: ...

    def apply(self, state: Any, command: dict[str, Any], rng: random.Random) -> tuple[Any, dict[str, Any]]:
        """Return the new state and the event payload that replays to it without randomness."""

    def view(self, state: Any) -> dict[str, Any]: ...


@dataclass
class _Live:
    session: Session
    rules: GameRules
    state: Any
    actions: int  # actions in force (what undo can take back)
    desk: dict[str, Any]
    replaced: bool = False  # it replaced another game (which an undo before its first action brings back)


class Table:
    def __init__(
        self,
        store: EventStore,
        games: dict[str, GameRules],
        rng: random.Random | None = None,
        bus: EventBus | None = None,
    ):
        self.store = store
        self.games = games
        self.rng = rng or random.SystemRandom()
        self.bus = bus or EventBus()
        self._lock = threading.RLock()
        self._live: _Live | None = None
        self._desk_off_game: dict[str, Any] = copy.deepcopy(IDLE_DESK)  # no game on: said, never logged

    # -- sessions -------------------------------------------------------------------------

    def new_game(self, game: str, setup: dict[str, Any]) -> dict[str, Any]:
        rules = self._rules(game)
        with self._lock:
            state = rules.start(setup)  # refuse a bad setup before anything is written
            session = self.store.new_session(game, setup)
            replaced = self.store.latest_session(before=session.id) is not None
            self._live = _Live(session, rules, state, 0, copy.deepcopy(IDLE_DESK), replaced)
            return self._publish("new_game", {"game": game, "setup": setup})

    def resume(self, session_id: int | None = None) -> bool:
        """Replay the latest (or a given) session from the log; False when there is none."""
        with self._lock:
            session = self.store.session(session_id) if session_id else self.store.latest_session()
            if session is None or session.game not in self.games:
                return False
            self._live = self._replay(session)
            return True

    def _replay(self, session: Session) -> _Live:
        rules = self._rules(session.game)
        state = rules.start(session.setup)
        events = self.store.events(session.id)
        actions = effective_actions([e for e in events if e.kind != DESK])
        for event in actions:
            state, _ = rules.apply(state, event.payload, _NoDice())
        desks = [e.payload for e in events if e.kind == DESK]
        desk = desks[-1] if desks else copy.deepcopy(IDLE_DESK)
        replaced = self.store.latest_session(before=session.id) is not None
        return _Live(session, rules, state, len(actions), desk, replaced)

    # -- commands -------------------------------------------------------------------------

    def dispatch(self, command: dict[str, Any]) -> dict[str, Any]:
        if not isinstance(command, dict) or not isinstance(command.get("type"), str):
            raise BadInput('a command is a JSON object with a "type"')
        with self._lock:
            live = self._require_game()
            if command["type"] == UNDO:
                return self.undo()
            if command["type"] == DESK:
                raise BadInput("the referee's desk changes through update_desk, not a command")
            state, payload = live.rules.apply(live.state, command, self.rng)
            event = self.store.append(live.session.id, command["type"], payload)
            live.state, live.actions = state, live.actions + 1
            return self._publish(event.kind, payload, event.seq)

    def undo(self) -> dict[str, Any]:
        """Take back the last action; in a game with none yet, take back the game: the one it replaced is back."""
        with self._lock:
            live = self._require_game()
            if live.actions == 0:
                return self._withdraw(live)
            event = self.store.append(live.session.id, UNDO, {})
            self._live = self._replay(live.session)
            return self._publish(UNDO, {}, event.seq)

    def _withdraw(self, live: _Live) -> dict[str, Any]:
        before = self.store.latest_session(before=live.session.id)
        if before is None or before.game not in self.games:
            raise IllegalPlay("nothing to undo")
        event = self.store.append(live.session.id, WITHDRAWN, {})
        self._live = self._replay(before)
        return self._publish(UNDO, {"game": before.game}, event.seq)

    def update_desk(self, change: Callable[[dict[str, Any]], dict[str, Any]], log: bool = True) -> dict[str, Any]:
        """Change the referee's desk: ``change`` gets a copy and returns the new desk.

        Runs under the table lock, so two threads never lose each other's change; logged before
        it is published while a game is on (``log=False``: a passing status, e.g. busy)."""
        with self._lock:
            old = self._live.desk if self._live else self._desk_off_game
            new = change(copy.deepcopy(old))
            if new == old:  # nothing to say again: no event, no redraw of every page
                return copy.deepcopy(new)
            seq = None
            if self._live is not None:
                if log:
                    seq = self.store.append(self._live.session.id, DESK, new).seq
                self._live.desk = new
            else:
                self._desk_off_game = new
            self.bus.publish({"seq": seq, "kind": "referee", "payload": copy.deepcopy(new), "view": None})
            return copy.deepcopy(new)

    def desk(self) -> dict[str, Any]:
        with self._lock:
            return copy.deepcopy(self._live.desk if self._live else self._desk_off_game)

    @property
    def lock(self) -> threading.RLock:
        """Hold it to make several commands one step (no other thread's command comes between)."""
        return self._lock

    def responsive(self, timeout: float) -> bool:
        """True when a command could be taken now (the lock is free within ``timeout``): for the watchdog."""
        if self._lock.acquire(timeout=timeout):
            self._lock.release()
            return True
        return False

    # -- views ----------------------------------------------------------------------------

    @property
    def game(self) -> str | None:
        return self._live.session.game if self._live else None

    @property
    def state(self) -> Any:
        return self._live.state if self._live else None

    def view(self) -> dict[str, Any]:
        with self._lock:
            if self._live is None:
                return {"game": None}
            return {
                "game": self._live.session.game,
                "session": self._live.session.id,
                "can_undo": self._live.actions > 0 or self._live.replaced,
                "actions": self._live.actions,  # a game with none yet is replaced without asking
                **self._live.rules.view(self._live.state),
            }

    def _publish(self, kind: str, payload: dict[str, Any], seq: int | None = None) -> dict[str, Any]:
        message = {"seq": seq, "kind": kind, "payload": payload, "view": self.view()}
        self.bus.publish(message)
        return message

    def _rules(self, game: str) -> GameRules:
        if not isinstance(game, str) or game not in self.games:
            raise BadInput(f"unknown game {game!r}; known: {', '.join(sorted(self.games))}")
        return self.games[game]

    def _require_game(self) -> _Live:
        if self._live is None:
            raise IllegalPlay("no game on the table: start one first")
        return self._live


class _NoDice(random.Random):
    """Replays never roll: every roll they need is in the event. Rolling here is a bug."""

    def randint(self, a: int, b: int) -> int:  # pragma: no cover - a guard
        raise RuntimeError("a replayed event needed a fresh roll")
