import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest


def pytest_configure(config):
    """Under pytest-xdist (`make test` runs a worker a core) each worker keeps to its own core: the networks and
    OpenCV size their threads to the cores a process may use, and two workers' threads on both cores fight."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")  # "gw0", "gw1", ...
    if worker.startswith("gw") and hasattr(os, "sched_setaffinity"):
        cores = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cores[int(worker[2:]) % len(cores)]})


@pytest.fixture
def run_cli(tmp_path):
    """Run `companion …` in a real subprocess, as a user or a hidden test would."""

    def run(*args, files: dict | None = None):
        for name, content in (files or {}).items():
            path = tmp_path / name
            path.write_text(content if isinstance(content, str) else json.dumps(content))
        completed = subprocess.run(
            [sys.executable, "-m", "companion.cli", *args], cwd=tmp_path, capture_output=True, text=True, timeout=60
        )
        return completed

    return run


@pytest.fixture
def shared_dir() -> Path:
    return Path(__file__).resolve().parents[2] / "shared"


@pytest.fixture
def pin_factory():
    from companion.devices.controls import mock_factory

    factory = mock_factory()
    yield factory
    factory.reset()


@pytest.fixture
def companion(tmp_path, pin_factory):
    """The whole companion off a Pi: real Table and store, mock pins, no camera."""
    import random

    from companion import config
    from companion.app import build

    settings = config.load()
    settings["camera"]["folder"] = str(tmp_path / "no-photos")
    built = build(settings, demo=True, pin_factory=pin_factory, instance=tmp_path / "instance", rng=random.Random(3))
    yield built
    built.close()


@pytest.fixture
def client(companion):
    return companion.app.test_client()


@pytest.fixture
def api(client):
    """POST JSON with the page's CSRF token, as the page's script does."""
    token = client.get("/api/state").get_json()["csrf"]

    def post(path, body=None, **kw):
        return client.post(path, json=body if body is not None else {}, headers={"X-CSRF-Token": token}, **kw)

    post.token = token
    return post


class TableChanges:
    """Wait until the table reaches a state: woken by each of its publishes, never polling."""

    def __init__(self, table):
        self._changed = threading.Condition()
        table.bus.listen(self._wake)  # after the app's own listeners: the lights are already set

    def _wake(self, _message) -> None:
        with self._changed:
            self._changed.notify_all()

    def until(self, predicate, timeout: float = 5.0) -> bool:
        with self._changed:
            return self._changed.wait_for(predicate, timeout)


@pytest.fixture
def table_changes(companion):
    return TableChanges(companion.table)


def pytest_sessionstart(session):
    """COMPANION_TEST_INSTALLED=1 (.ci/run's second venv): the tests must import the installed wheel.

    The repo goes last on sys.path there, so `bench` is found and `companion` still comes from the wheel."""
    import os

    if os.environ.get("COMPANION_TEST_INSTALLED") != "1":
        return
    root = Path(__file__).resolve().parents[1]
    sys.path.append(str(root))
    import companion

    if Path(companion.__file__).resolve().is_relative_to(root / "companion"):
        raise pytest.UsageError(f"COMPANION_TEST_INSTALLED=1 but companion comes from {companion.__file__}")
