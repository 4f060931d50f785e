"""Real servers for tests: a free loopback port, and waiting until a started server answers."""

import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until_up(url: str, proc: subprocess.Popen, timeout: float = 30) -> None:
    """Return once ``url`` answers; fail at once if the server exits, or after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
            raise AssertionError(f"the server exited with {proc.returncode}: {err[-2000:]}")
        try:
            urllib.request.urlopen(url, timeout=1).read()
            return
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise AssertionError(f"{url} did not answer in {timeout} s")


def start_demo_server(port: int, data) -> subprocess.Popen:
    """`companion serve --demo` on ``port``, its data under ``data``; returned once it answers."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "serve", "--demo", "--port", str(port)],
        env={**os.environ, "XDG_DATA_HOME": str(data)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wait_until_up(f"http://127.0.0.1:{port}/api/state", proc)
    return proc


def serving(app):
    """A real WSGI server for ``app`` on a free port of 127.0.0.1, serving from a thread of its own."""
    from waitress.server import create_server

    srv = create_server(app, host="127.0.0.1", port=0, threads=8, asyncore_use_poll=True)  # as app.run does
    threading.Thread(target=_serve_until_closed, args=(srv,), daemon=True).start()
    return srv


def _serve_until_closed(srv) -> None:
    try:
        srv.run()
    except OSError:
        pass  # closed at teardown while waiting in select(): the test is over
