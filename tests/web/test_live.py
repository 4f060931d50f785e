"""Live pages on a real server: past the limit a page is told to poll, and pages and actions still answer."""

import socket
import time
import urllib.error
import urllib.request

from companion.web.live import KEEPALIVE_S, Slots

from ..servers import serving


def open_stream(port: int) -> socket.socket:
    """A page's live stream: connected once its first line has come."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(b"GET /events HTTP/1.1\r\nHost: localhost\r\n\r\n")
    received = b""
    while b": connected" not in received:
        received += s.recv(4096)
    return s


def status_of(url: str) -> int:
    try:
        return urllib.request.urlopen(url, timeout=10).status
    except urllib.error.HTTPError as error:
        return error.code


def test_pages_past_the_limit_poll_and_a_gone_page_frees_its_place(companion):
    companion.app.extensions["live_slots"] = Slots(2)
    srv = serving(companion.app)
    base = f"http://127.0.0.1:{srv.effective_port}"
    try:
        streams = [open_stream(srv.effective_port) for _ in range(2)]
        assert status_of(f"{base}/events") == 503
        assert status_of(f"{base}/api/state") == 200  # the page itself, and the kiosk, still answer
        streams[0].close()  # a phone walks away without closing the page: noticed at the next keep-alive
        deadline = time.monotonic() + 3 * KEEPALIVE_S
        while status_of(f"{base}/api/state") == 200 and companion.app.extensions["live_slots"].full():
            assert time.monotonic() < deadline, "the gone page still holds its place"
            time.sleep(0.2)
        streams.append(open_stream(srv.effective_port))
        streams[1].close()
        streams[2].close()
    finally:
        srv.close()
