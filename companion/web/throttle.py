"""Wrong PINs cost time: a few tries free, then each wrong one doubles the wait before the next, per client."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

FREE_TRIES = 5  # wrong PINs a client may enter before it has to wait (fingers slip)
FIRST_WAIT_S = 1.0  # the wait after the first wrong PIN past the free ones; each next one doubles it
LONGEST_WAIT_S = 300.0  # at most this long: about a dozen tries an hour, 10,000 PINs take most of a year
FORGET_S = 3600.0  # a client with no wrong PIN for this long starts afresh
MOST_CLIENTS = 10_000  # remembered at most (the longest-quiet forgotten first): a flood cannot fill memory


class WrongPins:
    """Per client address: how many wrong PINs in a row, and until when it must wait."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._clients: dict[str, tuple[int, float, float]] = {}  # address -> (wrong in a row, wait until, last wrong)

    def wait(self, client: str) -> float:
        """Seconds before ``client`` may try a PIN again (0: now)."""
        with self._lock:
            _, until, _ = self._clients.get(client, (0, 0.0, 0.0))
            return max(0.0, until - self._clock())

    def wrong(self, client: str) -> None:
        now = self._clock()
        with self._lock:
            fails, _, last = self._clients.pop(client, (0, 0.0, 0.0))
            fails = 1 if now - last > FORGET_S else fails + 1
            doublings = min(fails - FREE_TRIES, 32)  # past the longest wait anyway; 2**1024 would not fit a float
            wait = 0.0 if fails < FREE_TRIES else min(LONGEST_WAIT_S, FIRST_WAIT_S * 2**doublings)
            self._clients[client] = (fails, now + wait, now)  # re-inserted: the dict stays in order of last wrong
            while len(self._clients) > MOST_CLIENTS:
                del self._clients[next(iter(self._clients))]

    def right(self, client: str) -> None:
        with self._lock:
            self._clients.pop(client, None)
