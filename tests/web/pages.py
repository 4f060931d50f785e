"""The real page in headless Chromium: the kiosk opened on a served app, and the steps every browser test takes."""

import contextlib
import os
from pathlib import Path

from ..servers import serving

# screenshots of the states the tests play: written only when asked for (make screenshots sets this)
SHOTS = Path(os.environ["COMPANION_SHOTS"]) if os.environ.get("COMPANION_SHOTS") else None


@contextlib.contextmanager
def kiosk(app, browser, width: int, height: int):
    """``app`` served for real on 127.0.0.1, its kiosk page open in Chromium at width x height and live."""
    srv = serving(app)
    page = watched(browser.new_page(viewport={"width": width, "height": height}))
    try:
        page.goto(f"http://127.0.0.1:{srv.effective_port}/kiosk")
        live(page)
        yield page
    finally:
        page.close()
        srv.close()


def watched(page):
    """``page`` with its console errors and failed requests kept, for `live` to tell why a page never went live."""
    seen = []
    page.on("console", lambda message: message.type == "error" and seen.append(f"console: {message.text}"))
    page.on("pageerror", lambda error: seen.append(f"script error: {error}"))
    page.on("requestfailed", lambda request: seen.append(f"failed: {request.url} {request.failure}"))
    page.companion_seen = seen
    return page


def live(page):
    from playwright.sync_api import TimeoutError as Timeout

    try:
        page.wait_for_selector("#live.on", timeout=30000)  # a loaded 2-core machine: seconds, not a fault
    except Timeout:
        now = page.evaluate("({ready: document.readyState, live: document.querySelector('#live')?.className})")
        raise AssertionError(
            f"the page never went live in 30 s: {now}; {getattr(page, 'companion_seen', '?')}"
        ) from None


def open_setup(page):
    """The New game panel: on the kiosk the Games menu (open by itself with no game on the table), on a phone the fold."""
    if page.locator("#menu").count():
        if page.locator("body.menu").count() == 0:
            page.locator("#menu").click()
    elif page.locator("#setup-details[open]").count() == 0:
        page.locator("#setup-details summary").click()


def choose_game(page, tab: str):
    """The kiosk's Games menu at one game's tab (``new-bones``, ``new-sepulchre``, ...)."""
    open_setup(page)
    if page.locator("#tabs").count():
        page.locator(f"#tabs button[data-tab={tab}]").click()


def start_by_touch(page, tab: str, **fields: str):
    """A new game started from the Games menu: ``tab``'s fields filled (``players="Ann, Bob"`` fills
    ``#players``; underscores are dashes), then its Start button pressed."""
    choose_game(page, tab)
    for field, value in fields.items():
        page.fill("#" + field.replace("_", "-"), value)
    page.locator(f"#{tab} button").click()


def shoot(page, name, width, height):
    if SHOTS is None:
        return
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": width, "height": height})
    page.screenshot(path=str(SHOTS / f"{name}-{width}x{height}.png"))
