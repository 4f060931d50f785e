import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium, headless, driven by Playwright (a test dependency, never skipped when chromium is here);
    one a test module, as before session 23: with one for the whole session a page twice never went live in CI."""
    if CHROMIUM is None:
        if os.environ.get("CI"):
            raise RuntimeError("CI must install Debian's chromium for the browser tests (.ci/run does)")
        pytest.skip("no chromium on this machine: apt-get install chromium")
    import playwright.sync_api as playwright

    with playwright.sync_playwright() as p:
        chromium = p.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--disable-quic",
            ],
        )
        yield chromium
        chromium.close()


@pytest.fixture
def photo_companion(tmp_path, pin_factory):
    """The demo table whose camera replays one rendered photo (bench/data/dice/dev)."""
    import random

    from companion import config
    from companion.app import build

    settings = config.load()
    scene = Path(__file__).resolve().parents[2] / "bench" / "data" / "dice" / "dev" / "scene-00205.jpg"
    settings["camera"]["folder"] = str(scene)
    built = build(settings, demo=True, pin_factory=pin_factory, instance=tmp_path / "inst", rng=random.Random(2))
    yield built, scene
    built.close()
