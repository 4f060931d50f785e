"""Each game's flow on the kiosk, state by state, at 800x480, 1024x600, 1280x720 and 1920x1080: nothing scrolls,
the next action is on the screen and the biggest control, no text under 18 px. Screenshots of every state."""

from companion.games.rolling_bones.dice import FACE_IDS
from companion.web.tomb import demo_stage

from .kiosk_layout import check_state
from .pages import choose_game, kiosk, start_by_touch


def test_rolling_bones_every_state_fits_the_kiosk(companion, browser):
    table = companion.table
    table.new_game("rolling-bones", {"players": ["Ann", "Bob", "Cat"], "target": 3})
    with kiosk(companion.app, browser, 800, 480) as page:
        check_state(page, "bones-throw")
        page.locator("[data-testid=throw-by-touch-open]").click()
        for face in FACE_IDS[:10]:
            page.locator(f"#sheet button[title='add {face}']").click()
        check_state(page, "bones-throw-by-touch")
        page.get_by_role("button", name="Close").click()
        table.dispatch({"type": "roll", "faces": list(FACE_IDS)})
        page.wait_for_selector("[data-testid=loose-dice]")
        page.wait_for_selector("[data-testid=advice] >> text=/lay|bury|roll/", timeout=20000)
        check_state(page, "bones-lay")
        table.dispatch({"type": "bury"})
        page.get_by_role("button", name="Next player (TURN)").wait_for()
        check_state(page, "bones-turn-over")
        page.get_by_role("button", name="Next player (TURN)").click()
        page.wait_for_selector(".scores tr.current >> text=Bob")
        for command in (
            {"type": "roll", "faces": ["left-foot"] * 6 + ["right-foot"] * 6 + ["skull"] * 6},
            {"type": "lay", "face": "skull"},
            {"type": "pay", "dice": ["right-foot"]},
            {"type": "roll", "faces": ["left-foot"] * 6 + ["right-foot"] * 5 + ["spine"] * 5},
        ):
            table.dispatch(command)
        page.wait_for_selector("[data-testid=forced]")
        check_state(page, "bones-forced-wrong-bone")
        page.locator("[data-testid=loose-dice] button[title=spine]").first.click()
        check_state(page, "bones-forced-slots")
        page.get_by_role("button", name="Games").click()
        check_state(page, "menu-new-game")
        for tab in ("new-sepulchre", "new-ghosts", "new-mausoleum", "new-tomb"):
            choose_game(page, tab)
            check_state(page, f"menu-{tab}")
        choose_game(page, "teach")
        check_state(page, "menu-teach-the-dice")
        choose_game(page, "phones")
        check_state(page, "menu-phones", next_action=False)  # the PIN is set once, on a phone's page
        page.get_by_role("button", name="Back").click()
        page.wait_for_selector("#bones:visible")


def test_naming_unread_dice_on_the_photo_fits_the_kiosk(photo_companion, browser):
    companion, _ = photo_companion
    with kiosk(companion.app, browser, 800, 480) as page:
        page.locator("#buttons button[data-button=undertaker]").click()
        page.get_by_role("button", name="Name them on the photo").wait_for()
        check_state(page, "bones-photo-unread")
        page.get_by_role("button", name="Name them on the photo").click()
        page.wait_for_selector("#sheet .mark")
        check_state(page, "bones-naming-dice")


def test_sepulchre_every_state_fits_the_kiosk(companion, browser):
    companion.table.new_game("sepulchre", {"players": ["Ann", "Bob", "Cat", "Dan"]})
    with kiosk(companion.app, browser, 800, 480) as page:
        check_state(page, "sepulchre-start")
        page.locator("#buttons button[data-button=undertaker]").click()
        page.wait_for_selector("#sepulchre .photo img")
        check_state(page, "sepulchre-flagged")
        page.locator("[data-testid=graves-by-touch-open]").click()
        check_state(page, "sepulchre-counting")
        for piece in ("skull", "ribs"):
            page.get_by_role("button", name=f"one {piece} more in Ann").click()
        page.get_by_role("button", name="Record these counts").click()
        page.wait_for_selector("[data-testid=graves] >> text=1 skull, 1 ribs")
        check_state(page, "sepulchre-recorded")


def test_dark_tomb_every_state_fits_the_kiosk(companion, browser):
    with kiosk(companion.app, browser, 800, 480) as page:
        choose_game(page, "new-tomb")
        page.get_by_role("button", name="Start the demo Stage").click()
        page.wait_for_selector("[data-testid=map]")
        check_state(page, "tomb-character-turn")
        page.get_by_role("button", name="Next turn (TURN)").click()  # brienne's turn played on the table
        page.wait_for_selector("text=edric's turn")
        page.get_by_role("button", name="Next turn (TURN)").click()
        page.wait_for_selector("text=the Stage turn")
        check_state(page, "tomb-stage-turn")
        page.get_by_role("button", name="Run the Stage turn").click()
        page.wait_for_selector("[data-testid=why]")
        check_state(page, "tomb-after-stage-turn")
        page.get_by_role("button", name="Next turn (TURN)").click()
        page.wait_for_selector("text=Round 2: brienne's turn")  # a whole round by touch
        assert page.locator("[data-testid=map] g.earlier line.move").count() >= 1  # round 1's moves, faded
        assert "The Stage turn of round 1 (faded on the map)" in page.locator("#tomb").inner_text()
        check_state(page, "tomb-round-2")
        page.locator("[data-button=undo]").click()
        page.wait_for_selector("text=Round 1: the Stage turn")
        assert page.locator("[data-testid=map] g.earlier").count() == 0  # this round's moves again


def test_ghosts_every_state_fits_the_kiosk(companion, browser):
    companion.table.new_game("ghosts", {"players": ["Ann", "Bob", "Cat", "Dan"], "first_cards": [12, 40, 7, 33]})
    with kiosk(companion.app, browser, 800, 480) as page:
        page.wait_for_selector("text=Bob's turn: asking Cat")
        check_state(page, "ghosts-turn")
        page.locator("[data-tombstone='23']").click()
        check_state(page, "ghosts-tombstone-tapped")
        page.get_by_role("button", name="Search from 23").click()
        page.get_by_role("button", name="Flood W").click()
        check_state(page, "ghosts-light-chosen")
        page.locator("[data-tombstone='17']").click()
        page.get_by_role("button", name="Guess 17").click()
        check_state(page, "ghosts-guess")


def test_mausoleum_every_state_fits_the_kiosk(companion, browser):
    with kiosk(companion.app, browser, 800, 480) as page:
        start_by_touch(page, "new-mausoleum", maus_players="Ann, Bob, Cat")
        page.wait_for_selector("text=Ann's turn")
        check_state(page, "mausoleum-turn")
        companion.table.dispatch({"type": "draw", "from": "deck"})
        page.wait_for_timeout(300)
        check_state(page, "mausoleum-drawn")


def test_a_room_started_by_touch_and_a_piece_dragged(companion, browser):
    with kiosk(companion.app, browser, 800, 480) as page:
        choose_game(page, "new-tomb")
        page.fill("#tomb-width", "10")
        page.fill("#tomb-height", "6")
        page.get_by_role("button", name="Start the room").click()
        page.wait_for_selector("[data-testid=map]")
        grid = companion.table.state.scenario.grid
        assert (grid.width, grid.height) == (10, 6)
        start = companion.table.state.scenario.characters[0].pos
        assert start == (1, 1)
        piece = page.locator(f"[data-testid=map] circle[data-cell='{start[0]},{start[1]}']").bounding_box()
        cell = page.locator("[data-testid=map] rect[data-cell='3,2']").bounding_box()
        page.mouse.move(piece["x"] + piece["width"] / 2, piece["y"] + piece["height"] / 2)
        page.mouse.down()
        page.mouse.move(cell["x"] + cell["width"] / 2, cell["y"] + cell["height"] / 2, steps=8)
        page.mouse.up()
        page.wait_for_function("state.scenario.characters[0].pos.join() === '3,2'")
        assert companion.table.state.scenario.characters[0].pos == (3, 2)
        assert demo_stage()["characters"][0]["id"] == companion.table.state.scenario.characters[0].id


def _after(page, companion, click) -> None:
    """Click, then wait until the table has changed (the page's answer is the next snapshot)."""
    before = companion.table.view()
    click()
    for _ in range(100):
        if companion.table.view() != before:
            page.wait_for_timeout(150)  # the page redraws from the live update
            return
        page.wait_for_timeout(50)
    raise AssertionError("the table did not change")


def test_rolling_bones_played_to_a_win_by_touch_at_800x480(companion, browser):
    with kiosk(companion.app, browser, 800, 480) as page:
        start_by_touch(page, "new-bones", players="Ann, Bob", target="8")
        if page.locator("#confirm:not([hidden])").count():
            page.get_by_role("button", name="Replace it").click()
        page.wait_for_selector(".scores >> text=Bob")
        for _ in range(400):
            view = companion.table.view()
            if view["winner"]:
                break
            turn = view["turn"]
            if turn["phase"] == "throw":
                _after(page, companion, page.get_by_role("button", name="Throw for me").click)
            elif turn["phase"] == "over":
                _after(page, companion, page.get_by_role("button", name="Next player (TURN)").click)
            elif turn["can_bury"] and (turn["score"] >= 8 or not any(m["face"] != "gravestone" for m in turn["legal"])):
                _after(page, companion, page.get_by_role("button", name=f"Bury ({turn['score']})").click)
            elif page.locator("[data-testid=forced-slots] button").count():
                _after(page, companion, page.locator("[data-testid=forced-slots] button").first.click)
            elif page.locator("[data-testid=loose-dice] button.legal:not([title=gravestone])").count():
                legal = page.locator("[data-testid=loose-dice] button.legal:not([title=gravestone])").first
                if turn["legal"] and all(
                    m["slot"] and m["slot"] != m["face"] for m in turn["legal"] if m["face"] != "hat"
                ):
                    legal.click()  # a wrong bone: its slots are offered next
                    page.wait_for_selector("[data-testid=forced-slots] button")
                else:
                    _after(page, companion, legal.click)
            else:  # nothing to lay: pay the dice asked and roll again
                page.get_by_role("button", name=f"Pay {turn['next_cost']} and roll again…").click()
                for k in range(turn["next_cost"]):
                    page.locator("[data-testid=loose-dice] button").nth(k).click()
                _after(
                    page,
                    companion,
                    page.get_by_role(
                        "button", name=f"Pay {turn['next_cost']}/{turn['next_cost']} and roll again"
                    ).click,
                )
        winner = companion.table.view()["winner"]
        assert winner in ("Ann", "Bob") and companion.table.view()["history"]
        page.wait_for_selector(f"text={winner} wins!")
        check_state(page, "bones-won", next_action=False)  # the game is over: the Games menu starts the next


def test_the_demo_stage_played_to_its_end_by_touch_at_800x480(companion, browser):
    """The players' turns are played on the table; the page runs every Stage turn until the Stage ends."""
    with kiosk(companion.app, browser, 800, 480) as page:
        choose_game(page, "new-tomb")
        page.get_by_role("button", name="Start the demo Stage").click()
        page.wait_for_selector("[data-testid=map]")
        for _ in range(200):
            last = companion.table.view()["last_turn"] or {}
            if last.get("party_defeated") or last.get("stage_complete"):
                break
            name = (
                "Run the Stage turn"
                if page.get_by_role("button", name="Run the Stage turn").count()
                else "Next turn (TURN)"
            )
            _after(page, companion, page.get_by_role("button", name=name).click)
        page.wait_for_selector("text=/The party is defeated|Stage complete!/")
        check_state(page, "tomb-the-end", next_action=False)  # the Stage is over: the Games menu starts the next
