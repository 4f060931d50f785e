"""Live state: a JSON snapshot, and Server-Sent Events that push it on every change."""

from __future__ import annotations

import json
import queue
import threading
from itertools import count

from flask import Blueprint, Response, current_app, jsonify, request, stream_with_context

from ..referee import means_nothing
from ..vocabulary import BUTTONS
from .auth import csrf_token, from_the_pi, may_change, table_pin

bp = Blueprint("live", __name__)

KEEPALIVE_S = 5  # a page that went away without closing is noticed at the next write: this soon
STREAMS_MOST = 24  # live pages at once: each holds one of waitress's 48 threads, the rest serve pages and actions
_ids = count(1)


class Slots:
    """At most ``most`` live streams at once; a page past that polls instead (app.js)."""

    def __init__(self, most: int) -> None:
        self.most, self.taken = most, 0
        self._lock = threading.Lock()

    def full(self) -> bool:
        return self.taken >= self.most

    def take(self) -> None:
        with self._lock:
            self.taken += 1

    def give_back(self) -> None:
        with self._lock:
            self.taken -= 1


def shared_snapshot(table, referee) -> dict:
    """What every page sees alike: the table, the referee's desk, and the buttons that mean nothing in this game."""
    game = table.game
    inert = {b: hint for b in BUTTONS if (hint := means_nothing(b, game))}
    return {**table.view(), "referee": referee.view(), "inert": inert}


def snapshot() -> dict:
    """The shared snapshot and what this page may do (its PIN session)."""
    return {
        **shared_snapshot(current_app.extensions["table"], current_app.extensions["referee"]),
        "access": {"may_change": may_change(), "on_pi": from_the_pi(), "pin_set": bool(table_pin())},
    }


@bp.get("/api/state")
def state():
    # live_port: where the page's live stream is (web/stream.py); absent, it uses /events here
    return jsonify({**snapshot(), "csrf": csrf_token(), "live_port": current_app.extensions.get("live_port")})


@bp.get("/events")
def events():
    table = current_app.extensions["table"]
    app = current_app._get_current_object()
    slots = app.extensions["live_slots"]
    if slots.full():  # (two pages may both pass this at once: the limit is a few streams soft)
        answer = jsonify(error="too many live pages at once: this page refreshes every few seconds instead")
        return answer, 503, {"Retry-After": "15"}
    # A reconnecting page (Last-Event-ID) gets the whole state at once: state is small, so
    # one snapshot replaces any events it missed.
    environ = request.environ.copy()

    def stream():
        # Subscribed only once the stream starts: a response never sent (HEAD) holds nothing.
        subscription = table.bus.subscribe()
        slots.take()
        try:
            yield ": connected\n\n"
            yield _event(app, environ)
            while True:
                try:
                    subscription.get(timeout=KEEPALIVE_S)
                except queue.Empty:
                    yield ": keep-alive\n\n"
                    continue
                while not subscription.empty():  # a burst becomes one snapshot
                    subscription.get_nowait()
                yield _event(app, environ)
        finally:
            slots.give_back()
            table.bus.unsubscribe(subscription)

    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return Response(stream_with_context(stream()), mimetype="text/event-stream", headers=headers)


def _event(app, environ) -> str:
    with app.request_context(environ):
        data = json.dumps(snapshot())
    return f"id: {next(_ids)}\nretry: 1000\ndata: {data}\n\n"
