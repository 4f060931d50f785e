"""What the kiosk promises in every state, measured in the real page: nothing scrolls or is cut off, the next thing
to do is on the screen and the biggest control there, and no text is too small to read from the chairs."""

from .pages import SHOTS

SIZES = ((800, 480), (1024, 600), (1280, 720), (1920, 1080))  # the official 7" display to a television
MIN_TEXT_PX = 18  # at 800x480; the page scales up from there

NEXT_FRAMES = "new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
MEASURE = """(minPx) => {
  const doc = document.scrollingElement;
  const shown = (e) => { const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && e.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }); };
  const small = [], cut = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const text = walker.currentNode.textContent.trim();
    const e = walker.currentNode.parentElement;
    if (!text || !e || e.closest('script, style, option, title, #toast') || !shown(e)) continue;
    let px = parseFloat(getComputedStyle(e).fontSize);
    if (e instanceof SVGElement) { const m = e.getScreenCTM(); px *= Math.hypot(m.a, m.b); }
    if (px < minPx - 0.25) small.push(`${text.slice(0, 30)} (${px.toFixed(1)} px)`);
    // cut off: outside the screen, or by a box that hides what overflows (a list that scrolls inside may run on)
    const range = document.createRange(); range.selectNodeContents(walker.currentNode);
    const r = range.getBoundingClientRect();
    let box = { left: 0, top: 0, right: innerWidth, bottom: innerHeight };
    for (let a = e; a; a = a.parentElement) {
      const o = getComputedStyle(a).overflowY;
      if (o === 'auto' || o === 'scroll') { box = null; break; }
      if (o === 'hidden' || o === 'clip') { const q = a.getBoundingClientRect();
        box = { left: Math.max(box.left, q.left), top: Math.max(box.top, q.top), right: Math.min(box.right, q.right), bottom: Math.min(box.bottom, q.bottom) }; }
    }
    if (box && (r.bottom > box.bottom + 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.left < box.left - 1))
      cut.push(text.slice(0, 30));
  }
  const controls = [...document.querySelectorAll('main button, main [data-next], #sheet button, #sheet [data-next]')].filter(shown);
  const next = [...document.querySelectorAll('[data-next]')].filter(shown);
  const area = (e) => { const r = e.getBoundingClientRect(); return r.width * r.height; };
  const inside = (e) => { const r = e.getBoundingClientRect();
    return r.left >= -0.5 && r.top >= -0.5 && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5; };
  const bigger = next.length ? controls.filter((c) => !c.closest('[data-next]') && area(c) > area(next[0]) + 1)
    .map((c) => c.textContent.trim().slice(0, 30) || c.getAttribute('aria-label')) : [];
  return { scrolls: doc.scrollHeight > innerHeight + 1 || doc.scrollWidth > innerWidth + 1,
           height: doc.scrollHeight, width: doc.scrollWidth, small: small.slice(0, 8), cut: cut.slice(0, 8),
           next: next.map((e) => (e.textContent.trim() || e.getAttribute('data-testid') || e.tagName).slice(0, 40)),
           next_inside: next.length > 0 && next.every(inside), bigger: bigger.slice(0, 5) };
}"""


def measure(page) -> dict:
    return page.evaluate(MEASURE, MIN_TEXT_PX)


def check_state(page, name: str, *, next_action: bool = True) -> None:
    """At each size: the page does not scroll, no text is under 18 px, and (unless the state waits on the table,
    not the screen) one next action is inside the viewport and no other control is bigger. A screenshot of each."""
    problems = []
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate(NEXT_FRAMES)  # laid out again at the new size
        if SHOTS is not None:
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / f"state-{name}-{width}x{height}.png"))
        got = measure(page)
        where = f"{name} at {width}x{height}"
        if got["scrolls"]:
            problems.append(f"{where}: the page scrolls ({got['width']}x{got['height']})")
        if got["cut"]:
            problems.append(f"{where}: text cut off: {got['cut']}")
        if got["small"]:
            problems.append(f"{where}: text under {MIN_TEXT_PX} px: {got['small']}")
        if next_action and not got["next_inside"]:
            problems.append(f"{where}: the next action is not on the screen ({got['next']})")
        if next_action and got["bigger"]:
            problems.append(f"{where}: controls bigger than the next action ({got['next']}): {got['bigger']}")
    page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
    assert not problems, "\n".join(problems)
