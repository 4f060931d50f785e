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


def live_server(companion, most: int = 2000):
    from companion.app import live_server as build_live_server

    live = build_live_server(companion, most)
    return live, live.start("127.0.0.1", 0)


def read_until(s: socket.socket, marker: bytes, received: bytes = b"") -> bytes:
    while marker not in received:
        chunk = s.recv(65536)
        assert chunk, "the stream closed"
        received += chunk
    return received


def test_500_live_pages_cost_no_thread_and_pages_and_actions_still_answer(companion):
    import threading

    live, port = live_server(companion)
    srv = serving(companion.app)  # waitress with 8 threads: fewer than the streams by far
    threads_before = threading.active_count()
    try:
        pages = [open_stream(port) for _ in range(500)]
        for _ in range(100):  # and 100 that leave without closing anything or reading a byte
            gone = socket.create_connection(("127.0.0.1", port), timeout=10)
            gone.sendall(b"GET /events HTTP/1.1\r\nHost: localhost\r\n\r\n")
        assert threading.active_count() <= threads_before + 1  # the snapshot helper: one, however many pages
        assert status_of(f"http://127.0.0.1:{srv.effective_port}/api/state") == 200
        companion.table.new_game("rolling-bones", {"players": ["Zed", "Yan"]})
        for page in pages:  # every page hears the new game
            read_until(page, b'"Zed"')
        assert live.pages >= 500
        for page in pages:
            page.close()
    finally:
        live.close()
        srv.close()


def test_the_live_port_refuses_what_it_does_not_serve_in_one_line(companion):
    live, port = live_server(companion, most=1)
    try:

        def ask(request: bytes) -> bytes:
            with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
                s.sendall(request)
                return read_until(s, b"\r\n\r\n")

        assert ask(b"GET /api/state HTTP/1.1\r\nHost: localhost\r\n\r\n").startswith(b"HTTP/1.1 404")
        assert ask(b"POST /events HTTP/1.1\r\nHost: localhost\r\n\r\n").startswith(b"HTTP/1.1 405")
        assert ask(b"GET /events HTTP/1.1\r\nHost: evil.example\r\n\r\n").startswith(b"HTTP/1.1 400")
        assert ask(b"HEAD /events HTTP/1.1\r\nHost: localhost\r\n\r\n").startswith(b"HTTP/1.1 200")
        assert live.pages == 0  # a HEAD holds no place
        first = open_stream(port)
        assert b"Retry-After: 15" in ask(b"GET /events HTTP/1.1\r\nHost: localhost\r\n\r\n")  # past the limit
        first.close()
    finally:
        live.close()


def test_the_page_is_told_where_its_live_stream_is(client, companion):
    assert client.get("/api/state").get_json()["live_port"] is None  # no live server: /events on this port
    companion.app.extensions["live_port"] = 8123
    assert client.get("/api/state").get_json()["live_port"] == 8123


def test_a_page_whose_stream_has_opened_is_counted_even_while_the_table_is_slow_to_show():
    from companion.web.stream import LiveServer

    slow = LiveServer(lambda: (time.sleep(0.5), {"seats": []})[1], lambda _: None, lambda _: True)
    port = slow.start("127.0.0.1", 0)
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        s.sendall(b"GET /events HTTP/1.1\r\nHost: localhost\r\n\r\n")
        assert read_until(s, b"200 OK")  # what a browser takes for the stream open
        assert slow.pages == 1  # so a change from now on is sent to it
        s.close()
    finally:
        slow.close()
