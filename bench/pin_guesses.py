"""PIN guesses one phone gets checked in a minute, against the real server (waitress, the app, its throttle).

The table's PIN is set from the Pi (loopback); the "phone" reaches the server by this machine's own
network address, so the server sees a client off the Pi. It sends wrong PINs as fast as it can for
``--seconds`` and counts those the server checked (403 "wrong PIN") and those it refused unchecked
(429 "try again in N s"). Baseline in the same run: the same client for a few seconds with the back-off
taken away (what the server allowed before issue 31), scaled to a minute.

    python bench/pin_guesses.py [--seconds 60]
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import random
import socket
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion import config  # noqa: E402
from companion.app import build  # noqa: E402
from companion.devices.controls import mock_factory  # noqa: E402
from companion.web.throttle import WrongPins  # noqa: E402


class NoBackOff(WrongPins):
    """The baseline: every wrong PIN is checked at once, as before issue 31."""

    def wait(self, client: str) -> float:
        return 0.0

    def wrong(self, client: str) -> None:
        pass


def own_address() -> str:
    """This machine's address on its network (not loopback): a client there is not on the Pi."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the outgoing interface
        return s.getsockname()[0]


def client(base: str):
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    token = json.loads(opener.open(f"{base}/api/state").read())["csrf"]

    def post(path: str, body: dict) -> int:
        request = urllib.request.Request(
            f"{base}{path}", json.dumps(body).encode(), {"Content-Type": "application/json", "X-CSRF-Token": token}
        )
        try:
            return opener.open(request, timeout=10).status
        except urllib.error.HTTPError as error:
            return error.code

    return post


def guess_for(post, seconds: float) -> tuple[int, int]:
    checked = refused = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        status = post("/api/login", {"pin": f"{random.randrange(10000):04d}"})
        checked += status == 403
        refused += status == 429
    return checked, refused


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=60)
    args = parser.parse_args()
    from waitress.server import create_server

    settings = config.load()
    settings["camera"]["folder"] = "/nonexistent"
    companion = build(settings, demo=True, pin_factory=mock_factory(), instance=Path(tempfile.mkdtemp()))
    server = create_server(companion.app, host="0.0.0.0", port=0, threads=8, asyncore_use_poll=True)
    threading.Thread(target=server.run, daemon=True).start()
    port = server.effective_port
    assert client(f"http://127.0.0.1:{port}")("/api/pin", {"pin": "24680"}) == 200  # set on the Pi
    phone = client(f"http://{own_address()}:{port}")

    companion.app.extensions["wrong_pins"] = NoBackOff()
    quick = 5.0
    base_checked, _ = guess_for(phone, quick)
    companion.app.extensions["wrong_pins"] = WrongPins()  # the shipped back-off, from a clean slate
    checked, refused = guess_for(phone, args.seconds)
    per_minute = checked * 60 / args.seconds
    baseline = base_checked * 60 / quick
    print(f"one phone, wrong PINs as fast as it can, {args.seconds:.0f} s against the real server")
    print(
        f"checked {checked} ({per_minute:.1f} a minute), refused unchecked {refused}; "
        f"baseline without the back-off: {baseline:.0f} a minute ({baseline / max(per_minute, 1e-9):.0f}x more)"
    )
    server.close()
    companion.close()


if __name__ == "__main__":
    main()
