"""After a SIGKILL the page shows what it showed: the game, the referee's reading, status and notice, overrides.

The real server (`companion serve --demo`) on loopback, driven through its HTTP API as the page drives it.
"""

import json
import signal
import urllib.error
import urllib.request
from http.cookiejar import CookieJar

from .servers import free_port
from .servers import start_demo_server as start


class Page:
    """A browser's session: cookies and the CSRF token, JSON in and out."""

    def __init__(self, port: int):
        self.base = f"http://127.0.0.1:{port}"
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
        self.token = self.state()["csrf"]

    def state(self) -> dict:
        return json.loads(self.opener.open(self.base + "/api/state", timeout=30).read())

    def post(self, path: str, body: dict | None = None) -> tuple[int, dict]:
        request = urllib.request.Request(
            self.base + path,
            data=json.dumps(body or {}).encode(),
            method="POST",
            headers={"Content-Type": "application/json", "X-CSRF-Token": self.token},
        )
        try:
            with self.opener.open(request, timeout=60) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())


def shown(state: dict) -> dict:
    """What the page draws (not the per-connection access and token)."""
    return {k: v for k, v in state.items() if k not in ("csrf", "access", "live_port")}


def kill_and_restart(proc, port, data):
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    return start(port, data)


def test_a_dice_reading_and_its_status_survive_sigkill(tmp_path):
    port = free_port()
    proc = start(port, tmp_path)
    try:
        page = Page(port)
        assert page.post("/api/new-game", {"game": "rolling-bones", "setup": {"players": ["Ann", "Bob"]}})[0] == 200
        status, after = page.post("/api/button/undertaker")
        assert status == 200 and after["referee"]["reading"]["photo"], after
        before = shown(page.state())
        assert before["referee"]["status"] in ("ready", "look") and before["referee"]["notice"]
        proc = kill_and_restart(proc, port, tmp_path)
        assert shown(Page(port).state()) == before
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()


def test_a_sepulchre_override_and_the_undertakers_notice_survive_sigkill(tmp_path):
    port = free_port()
    proc = start(port, tmp_path)
    try:
        page = Page(port)
        assert page.post("/api/new-game", {"game": "sepulchre", "setup": {"players": ["Ann", "Bob"]}})[0] == 200
        flagged = {"Ann": {"arm": 1}}  # an arm before any skull: "skull first"
        assert page.post("/api/command", {"type": "observe", "graves": flagged})[0] == 409
        status, after = page.post("/api/command", {"type": "override", "graves": flagged, "reason": "house rule"})
        assert status == 200 and after["overrides"]
        page.post("/api/button/undertaker")  # the demo boards each hold an overlapping pair: amber, a notice
        before = shown(page.state())
        assert before["referee"]["status"] == "look" and "not readable" in before["referee"]["notice"]
        proc = kill_and_restart(proc, port, tmp_path)
        assert shown(Page(port).state()) == before
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
