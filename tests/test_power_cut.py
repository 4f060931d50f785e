"""Power cuts: SIGKILL the real server at random moments under load; every acknowledged action survives.

Several clients keep starting games (each with a unique player name) through the real
HTTP API. The server process is killed at random moments and restarted on the same
database. Afterwards every acknowledged game is in the log, the database passes
PRAGMA integrity_check, and every stored row parses. POWER_CUTS sets how many kills
(default 12 here; the closing note of issue 8 reports a 200-kill run).
"""

import http.client
import json
import os
import random
import signal
import sqlite3
import threading
import time
import urllib.request
from http.cookiejar import CookieJar

from .servers import free_port
from .servers import start_demo_server as start

CUTS = int(os.environ.get("POWER_CUTS", "12"))


def client(port, acked, stop, prefix):
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
    token, n = None, 0
    while not stop.is_set():
        try:
            if token is None:
                token = json.loads(opener.open(f"http://127.0.0.1:{port}/api/state", timeout=2).read())["csrf"]
            name = f"{prefix}-{n}"
            body = json.dumps({"game": "rolling-bones", "setup": {"players": [name, "x"]}}).encode()
            req = urllib.request.Request(
                f"http://127.0.0.1:{port}/api/new-game",
                data=body,
                method="POST",
                headers={"Content-Type": "application/json", "X-CSRF-Token": token},
            )
            opener.open(req, timeout=2).read()
            acked.append(name)  # the server answered 200: acknowledged
            n += 1
        except (OSError, http.client.HTTPException, ValueError, KeyError):  # a killed server fails many ways
            token = None
            time.sleep(0.02)


def test_acknowledged_actions_survive_sigkill(tmp_path):
    port, rng = free_port(), random.Random(5)
    acked: list[str] = []
    proc = start(port, tmp_path)
    stop = threading.Event()
    threads = [threading.Thread(target=client, args=(port, acked, stop, f"c{i}"), daemon=True) for i in range(4)]
    for t in threads:
        t.start()
    try:
        for _ in range(CUTS):
            time.sleep(rng.uniform(0.05, 0.6))
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            proc = start(port, tmp_path)
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=5)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    db = tmp_path / "crypt-companion" / "demo" / "table.sqlite3"
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    stored = set()
    for (setup,) in conn.execute("SELECT setup FROM sessions"):
        stored.add(json.loads(setup)["players"][0])
    for (payload,) in conn.execute("SELECT payload FROM events"):
        json.loads(payload)
    assert len(acked) > CUTS, "the clients got work done between the cuts"
    missing = [name for name in acked if name not in stored]
    assert not missing, f"acknowledged but lost: {missing[:5]}"
