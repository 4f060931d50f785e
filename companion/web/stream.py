"""Live updates for every page on one asyncio loop: a stream costs a socket and its buffer, never a thread.

Waitress gives each request a thread until it answers, and a Server-Sent Events stream never
answers: 48 open pages would hold every thread. This small server listens on a port of its
own (``[server] live_port``) and answers only ``GET /events``: on every change of the table it
serialises one snapshot and writes it to every page. A page too far behind (a phone that left
without closing) is dropped; it reconnects and gets the whole state at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from itertools import count
from typing import Any

from ..errors import DeviceError

log = logging.getLogger(__name__)

MOST_STREAMS = 2000  # pages at once; each costs a socket and a few kB
KEEPALIVE_S = 5  # a comment line this often, so proxies keep the stream and gone pages are found
BEHIND_BYTES = 256 * 1024  # a page with this much unsent is not reading: dropped, it reconnects
HEAD_BYTES = 8192  # a request head longer than this is refused
HEAD_TIMEOUT_S = 10

_STREAM_HEAD = (
    b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
    b"Access-Control-Allow-Origin: *\r\nX-Accel-Buffering: no\r\nConnection: close\r\n\r\n"
)
_ANSWERS = {400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed", 503: "Service Unavailable"}


class LiveServer:
    """``/events`` for every page: `start` it on a thread of its own, `close` it at shutdown."""

    def __init__(
        self,
        snapshot: Callable[[], dict[str, Any]],
        listen: Callable[[Callable[[dict[str, Any]], None]], None],
        host_allowed: Callable[[str], bool],
        most: int = MOST_STREAMS,
    ) -> None:
        self._snapshot, self._host_allowed, self.most = snapshot, host_allowed, most
        self._pages: set[asyncio.StreamWriter] = set()
        self._ids = count(1)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: asyncio.Server | None = None
        self._pending = False
        self._helper = ThreadPoolExecutor(max_workers=1, thread_name_prefix="live-snapshot")  # one, not one a page
        self.port = 0
        listen(self._changed)

    @property
    def pages(self) -> int:
        return len(self._pages)

    def start(self, host: str, port: int) -> int:
        """Listen on host:port (0: any free port); returns the port. DeviceError if it cannot listen."""
        ready = threading.Event()
        failed: list[OSError] = []
        threading.Thread(target=self._run, args=(host, port, ready, failed), name="live", daemon=True).start()
        ready.wait(10)
        if failed:
            raise DeviceError(f"live updates cannot listen on {host}:{port}: {failed[0].strerror}")
        return self.port

    def close(self) -> None:
        loop = self._loop
        if loop is not None and loop.is_running():
            loop.call_soon_threadsafe(self._stop)

    # -- the loop's thread ------------------------------------------------------------------

    def _run(self, host: str, port: int, ready: threading.Event, failed: list[OSError]) -> None:
        loop = asyncio.new_event_loop()
        try:
            self._server = loop.run_until_complete(
                asyncio.start_server(self._serve, host, port, limit=HEAD_BYTES, backlog=1024)
            )
        except OSError as error:
            failed.append(error)
            ready.set()
            loop.close()
            return
        self.port = self._server.sockets[0].getsockname()[1]
        self._loop = loop
        loop.create_task(self._keep_alive())
        ready.set()
        try:
            loop.run_forever()
        finally:  # let every page's task end (closing its socket) before the loop goes
            pending = asyncio.all_tasks(loop)
            for task in pending:
                task.cancel()
            loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
            loop.close()
            self._helper.shutdown(wait=False)

    def _stop(self) -> None:
        for page in list(self._pages):
            page.close()
        self._pages.clear()
        if self._server is not None:
            self._server.close()
        asyncio.get_running_loop().stop()

    def _changed(self, _message: dict[str, Any]) -> None:
        """The table changed (called on the publisher's thread): one broadcast, however many changes come first."""
        loop = self._loop
        if loop is None or self._pending:
            return
        self._pending = True
        with contextlib.suppress(RuntimeError):  # the loop closed at shutdown
            loop.call_soon_threadsafe(lambda: loop.create_task(self._broadcast()))

    async def _broadcast(self) -> None:
        self._pending = False  # before the snapshot: a change after this point schedules another
        self._send(await self._event())

    async def _event(self) -> bytes:
        # the snapshot takes the table's lock: built off the loop, so a busy table never stalls the streams
        snapshot = await asyncio.get_running_loop().run_in_executor(self._helper, self._snapshot)
        return f"id: {next(self._ids)}\nretry: 1000\ndata: {json.dumps(snapshot)}\n\n".encode()

    def _send(self, data: bytes) -> None:
        for page in list(self._pages):
            if page.is_closing() or page.transport.get_write_buffer_size() > BEHIND_BYTES:
                self._pages.discard(page)
                page.close()
                continue
            page.write(data)

    async def _keep_alive(self) -> None:
        while True:
            await asyncio.sleep(KEEPALIVE_S)
            self._send(b": keep-alive\n\n")

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), HEAD_TIMEOUT_S)
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError, ConnectionError):
            writer.close()
            return
        refused = self._refusal(head)
        if refused:
            status, why = refused
            body = json.dumps({"error": why}).encode()
            extra = "Retry-After: 15\r\n" if status == 503 else ""
            writer.write(
                f"HTTP/1.1 {status} {_ANSWERS[status]}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\n{extra}Access-Control-Allow-Origin: *\r\nConnection: close\r\n\r\n".encode()
                + body
            )
            writer.close()
            return
        if head.startswith(b"HEAD "):
            writer.write(_STREAM_HEAD)
            writer.close()
            return
        try:
            first = await self._event()
        except Exception:  # the table could not be shown: say so in the log, close this page only
            log.exception("live snapshot failed")
            writer.write(_STREAM_HEAD)
            writer.close()
            return
        # counted, then answered, in one step of the loop: a page that sees its stream open is one a change is sent to
        self._pages.add(writer)
        writer.write(_STREAM_HEAD + b": connected\n\n" + first)
        try:
            while await reader.read(1024):  # a page says nothing more; the end of its stream is its leaving
                pass
        except ConnectionError:
            pass
        finally:
            self._pages.discard(writer)
            writer.close()

    def _refusal(self, head: bytes) -> tuple[int, str] | None:
        lines = head.decode("latin-1").split("\r\n")
        parts = lines[0].split(" ")
        if len(parts) != 3 or not parts[2].startswith("HTTP/1."):
            return 400, "not an HTTP/1.x request"
        method, target = parts[0], parts[1]
        host = next((line.split(":", 1)[1].strip() for line in lines[1:] if line.lower().startswith("host:")), "")
        if not self._host_allowed(host):
            return 400, f"this is the table's server, not {host!r}"
        if target.split("?", 1)[0] != "/events":
            return 404, "this port serves only /events"
        if method not in ("GET", "HEAD"):
            return 405, "GET /events only"
        if len(self._pages) >= self.most:
            return 503, "too many live pages at once: this page refreshes every few seconds instead"
        return None
