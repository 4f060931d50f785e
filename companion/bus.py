"""An in-process event bus: the Table publishes, pages and lights listen."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any


class EventBus:
    """Each subscriber gets its own queue; a subscriber too slow to keep up loses old messages, not the table."""

    def __init__(self, backlog: int = 256):
        self._backlog = backlog
        self._lock = threading.Lock()
        self._queues: list[queue.Queue] = []
        self._listeners: list[Callable[[dict[str, Any]], None]] = []

    def subscribe(self) -> queue.Queue:
        q: queue.Queue = queue.Queue(self._backlog)
        with self._lock:
            self._queues.append(q)
        return q

    def unsubscribe(self, q: queue.Queue) -> None:
        with self._lock:
            if q in self._queues:
                self._queues.remove(q)

    def listen(self, callback: Callable[[dict[str, Any]], None]) -> None:
        """Call ``callback(message)`` on every publish (keep it quick: it runs in the publisher's thread)."""
        with self._lock:
            self._listeners.append(callback)

    def publish(self, message: dict[str, Any]) -> None:
        with self._lock:
            queues, listeners = list(self._queues), list(self._listeners)
        for q in queues:
            while True:
                try:
                    q.put_nowait(message)
                    break
                except queue.Full:
                    try:
                        q.get_nowait()
                    except queue.Empty:
                        pass
        for callback in listeners:
            callback(message)

    @property
    def subscribers(self) -> int:
        with self._lock:
            return len(self._queues)
