"""systemd's notify protocol, without a dependency: READY=1 once serving, WATCHDOG=1 while the Table answers."""

from __future__ import annotations

import os
import socket
import threading


def notify(message: str) -> bool:
    """Send one sd_notify message; False when not run by systemd (no NOTIFY_SOCKET) or when its socket is not
    there just now (that ping is lost; the watchdog's next one goes as usual: a dead pinger thread would get
    the companion killed however well the Table answers)."""
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.connect(address)
            sock.sendall(message.encode())
    except OSError:
        return False
    return True


def keep_alive(table, stop: threading.Event) -> threading.Thread | None:
    """Ping the watchdog at half its interval, only while the Table's lock can be taken (not hung)."""
    usec = os.environ.get("WATCHDOG_USEC")
    if not usec or not os.environ.get("NOTIFY_SOCKET"):
        return None
    interval = int(usec) / 1e6 / 2

    def loop() -> None:
        while not stop.wait(interval):
            if table.responsive(timeout=interval) and not stop.is_set():
                notify("WATCHDOG=1")

    thread = threading.Thread(target=loop, name="watchdog", daemon=True)
    thread.start()
    return thread
