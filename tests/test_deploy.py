"""deploy/: the install script's dry run, shellcheck, the systemd unit, and the watchdog protocol."""

import os
import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

DEPLOY = Path(__file__).resolve().parents[1] / "deploy"


def test_install_dry_run_changes_nothing(tmp_path):
    done = subprocess.run(
        ["bash", str(DEPLOY / "install.sh"), "--dry-run", "--root", str(tmp_path), "--user", "pi"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "python3-picamera2" in done.stdout and "--system-site-packages" in done.stdout
    assert "crypt-companion.service" in done.stdout and "labwc/autostart" in done.stdout
    assert list(tmp_path.iterdir()) == []


def test_install_refuses_unknown_options():
    done = subprocess.run(["bash", str(DEPLOY / "install.sh"), "--frobnicate"], capture_output=True, text=True)
    assert done.returncode == 2 and "unknown option" in done.stderr


@pytest.mark.skipif(shutil.which("shellcheck") is None and not os.environ.get("CI"), reason="shellcheck not installed")
def test_scripts_pass_shellcheck():
    done = subprocess.run(
        ["shellcheck", str(DEPLOY / "install.sh"), str(DEPLOY / "kiosk.sh")], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze here")
def test_the_unit_verifies(tmp_path):
    unit = (DEPLOY / "crypt-companion.service").read_text()
    # verify checks the executable exists: point it at one that does, keep everything else
    unit = unit.replace("/opt/crypt-companion/venv/bin/companion", shutil.which("true"))
    path = tmp_path / "crypt-companion.service"
    path.write_text(unit)
    done = subprocess.run(["systemd-analyze", "verify", str(path)], capture_output=True, text=True)
    problems = [line for line in done.stderr.splitlines() if "crypt-companion.service" in line]
    assert not problems, done.stderr


def test_watchdog_pings_only_while_the_table_answers(tmp_path, monkeypatch):
    from companion.watchdog import keep_alive, notify

    address = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(address)
    sock.settimeout(2)
    monkeypatch.setenv("NOTIFY_SOCKET", address)
    monkeypatch.setenv("WATCHDOG_USEC", "100000")
    assert notify("READY=1") and sock.recv(64) == b"READY=1"

    class Table:
        lock = threading.Lock()

        def responsive(self, timeout):
            if self.lock.acquire(timeout=timeout):
                self.lock.release()
                return True
            return False

    table, stop = Table(), threading.Event()
    keep_alive(table, stop)
    assert sock.recv(64) == b"WATCHDOG=1"
    table.lock.acquire()  # a hung table: no more pings
    sock.settimeout(0.3)
    for _ in range(3):  # drain a ping already in flight
        try:
            sock.recv(64)
        except TimeoutError:
            break
    with pytest.raises(socket.timeout):
        sock.recv(64)
    stop.set()
    table.lock.release()
    sock.close()


def test_the_watchdog_keeps_pinging_after_its_socket_was_away(tmp_path, monkeypatch):
    """systemd's notify socket gone for a moment (a daemon re-exec): the pings sent then are lost, and the
    pinger carries on; a pinger thread that died on the error would get the companion killed."""
    from companion.watchdog import keep_alive, notify

    address = str(tmp_path / "notify")
    monkeypatch.setenv("NOTIFY_SOCKET", address)
    monkeypatch.setenv("WATCHDOG_USEC", "100000")
    assert notify("WATCHDOG=1") is False  # no socket there yet: one lost ping, no error

    class Table:
        def responsive(self, timeout):
            return True

    stop = threading.Event()
    thread = keep_alive(Table(), stop)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    try:
        time.sleep(0.3)  # pings sent to no socket
        sock.bind(address)
        sock.settimeout(2)
        assert sock.recv(64) == b"WATCHDOG=1"
        assert thread.is_alive()
    finally:
        stop.set()
        thread.join(2)
        sock.close()
