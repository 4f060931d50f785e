"""The real page in headless Chromium, served by waitress on 127.0.0.1, buttons on mock pins."""

import itertools
import json
import time
from pathlib import Path

import pytest

from companion.games.rolling_bones.dice import FACE_IDS
from companion.web.tomb import demo_stage

from ..servers import serving
from .kiosk_layout import check_state
from .pages import choose_game, kiosk, live, shoot, start_by_touch, watched


@pytest.fixture
def server(companion):
    srv = serving(companion.app)
    yield f"http://127.0.0.1:{srv.effective_port}"
    srv.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = watched(context.new_page())
    yield page
    context.close()


def test_a_button_press_on_the_pins_changes_the_page(server, page, companion, pin_factory):
    page.goto(server + "/kiosk")
    live(page)
    page.get_by_text("Throw for me").click()
    page.wait_for_selector("[data-testid=loose-dice] button")
    # lay what fits by tapping green dice until none is left, then bury or lose
    for _ in range(20):
        turn = companion.table.state.turn
        if turn.phase != "lay" or not [m for m in turn.legal_lays() if m.face != "gravestone"]:
            break
        page.locator("[data-testid=loose-dice] button.legal").first.click()
        page.wait_for_timeout(150)
    assert companion.table.state.turn.layout.slots, "tapping green dice laid bones"
    for name in ("kiosk-bones",):
        shoot(page, name, 800, 480)
        shoot(page, name, 1920, 1080)


def test_players_level_on_points_are_named_apart_on_the_chart(server, page, companion):
    """At the start every player is on 0: their names at the lines' ends were drawn on top of each other."""
    page.goto(server + "/")  # the phone's page: the kiosk shows the scores without the chart
    live(page)
    boxes = [
        page.locator("[data-testid=chart] text").nth(k).bounding_box()
        for k in range(page.locator("[data-testid=chart] text").count())
    ]
    assert len(boxes) == len(companion.table.state.players) >= 2
    for a, b in itertools.combinations(boxes, 2):
        assert a["y"] + a["height"] <= b["y"] + 0.5 or b["y"] + b["height"] <= a["y"] + 0.5, (a, b)


def test_turn_button_on_mock_pins_reaches_the_page(server, page, companion, pin_factory):
    page.goto(server + "/")
    live(page)
    faces = list(FACE_IDS)  # every face once: a perfect skeleton, the hat and a gravestone
    companion.table.dispatch({"type": "roll", "faces": faces})
    companion.table.dispatch({"type": "lay", "face": "skull"})
    advice = page.locator("[data-testid=advice]")
    advice.filter(has_text="then bury").wait_for(timeout=20000)
    assert "(50.0 points expected)" in advice.inner_text()
    shoot(page, "bones-advice", 800, 480)
    page.get_by_role("button", name="Bury (1)").click()
    page.get_by_role("button", name="Next player (TURN)").wait_for()
    pin = pin_factory.pin(17)
    pin.drive_low()
    time.sleep(0.1)
    pin.drive_high()
    page.wait_for_selector(".scores tr.current >> text=Bob", timeout=3000)
    assert page.locator(".scores tr").nth(0).inner_text().split() == ["Ann", "1"]


def test_a_dark_tomb_stage_turn_from_the_page(server, page, companion):
    page.goto(server + "/kiosk")
    live(page)
    choose_game(page, "new-tomb")
    page.get_by_role("button", name="Start the demo Stage").click()
    page.wait_for_selector("[data-testid=map]")
    page.locator("#buttons button[data-button=turn]").click()
    page.wait_for_selector("text=edric's turn")
    page.locator("#buttons button[data-button=turn]").click()
    page.wait_for_selector("text=the Stage turn")
    page.fill("#d20s", "12 10 10 10 10 10")
    page.evaluate("render(state)")  # any live update redraws the page: the typed d20s must survive it
    assert page.input_value("#d20s") == "12 10 10 10 10 10"
    page.get_by_role("button", name="Run the Stage turn").click()
    page.wait_for_selector("[data-testid=why] li >> text=Seismic d20: 12")
    items = page.locator("[data-testid=why] li").all_inner_texts()
    assert len(items) == 1 + 3 and all(":" in item for item in items)
    assert page.locator("[data-testid=map] line.move").count() >= 1  # the moves drawn as arrows
    assert "open gate" in page.locator("[data-testid=legend]").inner_text()
    grid = companion.table.state.scenario.grid
    assert (
        page.locator("[data-testid=map] text.coord").count() == grid.width + grid.height
    )  # cells as the reasons name them
    assert page.get_by_text("Move the minis on the table as the map shows, then press TURN.").is_visible()
    shoot(page, "kiosk-tomb", 800, 480)
    shoot(page, "kiosk-tomb", 1920, 1080)


def test_errors_show_as_a_message_not_a_crash(server, page):
    page.goto(server + "/")
    live(page)
    page.locator("#buttons button[data-button=turn]").click()
    page.wait_for_selector("#toast:not([hidden])")
    assert "not over" in page.locator("#toast").inner_text()


def test_rolling_bones_from_a_replayed_photo(photo_companion, browser):
    import json

    companion, scene = photo_companion
    with kiosk(companion.app, browser, 1920, 1080) as page:
        page.locator("#buttons button[data-button=undertaker]").click()
        page.get_by_role("button", name="Name them on the photo").click()
        assert page.locator("#status").inner_text() == "check"  # some dice could not be read: the kiosk's short word
        truth = json.loads(scene.with_suffix(".json").read_text())["dice"]
        # name each unreadable die on the photo, as the table would: its ring is chosen, tap its face
        for _ in range(30):
            if page.locator("#sheet .photo-marks .mark").count() == 0:
                break
            assert page.locator("#sheet .mark.chosen").inner_text() == "?1"
            x, y = page.evaluate("state.referee.reading.unreadable[0].center")
            die = min(truth, key=lambda d: abs(d["center"][0] - x) + abs(d["center"][1] - y))
            count = page.locator("#sheet .mark").count()
            page.locator(f"#sheet [aria-label='it is {die['face']}']").click()
            page.wait_for_function(f"document.querySelectorAll('#sheet .mark').length < {count}")
        page.wait_for_selector("[data-testid=loose-dice] button")
        assert sorted(companion.table.state.turn.loose) == sorted(d["face"] for d in truth)
        page.locator("[data-testid=loose-dice] button.legal").first.click()
        page.wait_for_timeout(300)
        assert companion.table.state.turn.layout.slots
        shoot(page, "kiosk-bones-photo", 1920, 1080)
        shoot(page, "kiosk-bones-photo", 800, 480)


def test_a_sepulchre_game_from_the_page(server, page, companion):
    page.goto(server + "/kiosk")
    live(page)
    start_by_touch(page, "new-sepulchre", sep_players="Ann, Bob")
    page.wait_for_selector("[data-testid=graves] >> text=Ann")
    companion.table.dispatch({"type": "observe", "graves": {"Ann": {"skull": 1, "ribs": 1}}})
    page.wait_for_selector("text=in progress: 1 skull, 1 ribs")
    assert "Ossuary: 11 skull" in page.locator("#sepulchre").inner_text()
    assert "1 skull from the Ossuary to grave Ann" in page.locator("#sepulchre").inner_text()
    shoot(page, "kiosk-sepulchre", 800, 480)
    shoot(page, "kiosk-sepulchre", 1920, 1080)


def test_moving_a_mini_in_the_stage_editor(server, page, companion):
    companion.table.new_game("dark-tomb", {"scenario": demo_stage()})
    page.goto(server + "/kiosk")
    live(page)
    page.locator("label", has_text="move a piece").locator("input").check()
    page.locator("[data-testid=map] circle[data-cell='1,1']").dispatch_event("click")  # brienne
    page.locator("[data-testid=map] rect[data-cell='3,1']").dispatch_event("click")
    page.wait_for_timeout(300)
    assert companion.table.state.scenario.characters[0].pos == (3, 1)


@pytest.fixture
def sheet_companion(tmp_path, pin_factory, monkeypatch):
    """The demo table whose camera replays three photos of the teaching sheet with dice on it, then the mat bare."""
    import cv2

    from bench.render.dice_scene import render_scene, render_sheet, set_camera_height

    photos = tmp_path / "camera"
    photos.mkdir()
    height = set_camera_height(900)
    for k in range(3):
        cv2.imwrite(str(photos / f"{k}-sheet.jpg"), render_sheet(900 + k, style=2, height_cm=height))
    cv2.imwrite(str(photos / "3-bare.jpg"), render_scene(950, n_dice=0, style=2, height_cm=height)[0])
    built = untaught_table(tmp_path, pin_factory, monkeypatch, photos, dice={"set": "taught"})
    yield built
    built.close()


def untaught_table(tmp_path, pin_factory, monkeypatch, photos, **sections):
    """The demo table with no set enrolled (it waits to be taught), its camera replaying ``photos``; ``sections``:
    settings over the defaults, by section."""
    import random

    from companion import config
    from companion.app import build

    monkeypatch.setenv("COMPANION_MODELS", str(tmp_path / "models"))
    settings = config.load()
    settings["camera"]["folder"] = str(photos)
    for name, values in sections.items():
        settings[name].update(values)
    return build(settings, demo=True, pin_factory=pin_factory, instance=tmp_path / "inst", rng=random.Random(2))


def test_the_dice_are_taught_from_three_photos_of_the_sheet(sheet_companion, browser, tmp_path):
    assert sheet_companion.referee.reader is None
    with kiosk(sheet_companion.app, browser, 800, 480) as page:
        choose_game(page, "teach")
        page.wait_for_function("document.querySelector('#teach-status').textContent.includes('0 of 3')")
        assert page.request.get(page.url.replace("/kiosk", "/teaching-sheet.png")).ok
        for taken in (1, 2, 3):
            page.locator("#teach-photo").click()
            page.wait_for_function(
                f"document.querySelector('#teach-status').textContent.includes('{taken} of 3')", timeout=20000
            )
        page.locator("#teach-photo").click()  # the bare mat: no sheet in it, refused and not kept
        page.wait_for_selector("#toast:not([hidden])")
        assert "teaching sheet's markers are not seen" in page.locator("#toast").inner_text()
        page.wait_for_function("document.querySelector('#teach-status').textContent.includes('3 of 3')")
        page.locator("#teach-learn").click()
        page.wait_for_function(
            "document.querySelector('#teach-status').textContent.includes('learned 18 faces')", timeout=60000
        )
        assert (tmp_path / "models" / "dice" / "taught" / "set.npz").is_file()
        assert sheet_companion.referee.reader is not None


TILTED = Path(__file__).resolve().parents[2] / "bench" / "data" / "pieces" / "tilted"
TAUGHT_IN_ORDER = [kind for kind in ("skull", "ribs", "pelvis", "arm", "leg") for _ in range(3)]


@pytest.fixture
def board_companion(tmp_path, pin_factory, monkeypatch):
    """A table over the tilted set's board (a board map), no piece set enrolled yet, whose camera replays a frame of
    one piece alone on the board a photo: three of each type, in the order they are taught."""
    import shutil

    photos = tmp_path / "camera"
    photos.mkdir()
    seen = {kind: 0 for kind in TAUGHT_IN_ORDER}
    for k, kind in enumerate(TAUGHT_IN_ORDER):
        shutil.copy(TILTED / "enroll-frames" / kind / f"{seen[kind]:02d}.jpg", photos / f"{k:02d}-{kind}.jpg")
        seen[kind] += 1
    shutil.copy(photos / "00-skull.jpg", photos / "00-zz-mistaken.jpg")  # the second photo: taken as the wrong type
    graves = str(TILTED / "graves.json")
    built = untaught_table(
        tmp_path, pin_factory, monkeypatch, photos, sepulchre=dict(set="taught", graves=graves, folder=str(photos))
    )
    yield built
    built.close()


def test_the_pieces_are_taught_from_the_table_cameras_frames(board_companion, browser, tmp_path):
    import cv2

    assert board_companion.referee.piece_reader is None
    with kiosk(board_companion.app, browser, 800, 480) as page:
        choose_game(page, "teach-pieces")
        page.wait_for_function("document.querySelector('#teach-pieces-status').textContent.includes('more photos')")
        page.locator("#teach-pieces-learn").click()  # nothing taken yet: refused in one line
        page.wait_for_selector("#toast:not([hidden])")
        assert "no photo of a skull yet" in page.locator("#toast").inner_text()
        for k, kind in enumerate(TAUGHT_IN_ORDER):
            page.locator(f"#teach-pieces-types button[data-piece={kind}]").click()
            taken = TAUGHT_IN_ORDER[: k + 1].count(kind)
            page.wait_for_function(
                f"document.querySelector('[data-piece={kind}]').textContent.endsWith('{taken} of 3')", timeout=20000
            )
            if k == 0:  # the skull photographed again, the arm tapped by mistake: taken back, the first kept
                page.locator("#teach-pieces-types button[data-piece=arm]").click()
                page.wait_for_function("document.querySelector('[data-piece=arm]').textContent.endsWith('1 of 3')")
                page.locator("#teach-pieces-undo").click()
                page.wait_for_function("document.querySelector('[data-piece=arm]').textContent.endsWith('0 of 3')")
                assert page.locator("[data-piece=skull]").inner_text().endswith("1 of 3")
        assert "every type photographed" in page.locator("#teach-pieces-status").inner_text()
        shoot(page, "kiosk-teach-pieces", 800, 480)
        page.locator("#teach-pieces-learn").click()
        page.wait_for_function(
            "document.querySelector('#teach-pieces-status').textContent.includes('learned 15 photos')", timeout=60000
        )
    assert (tmp_path / "models" / "pieces" / "taught" / "set.npz").is_file()
    truth = json.loads((TILTED / "board-00900.json").read_text())
    reading, _, _ = board_companion.referee.piece_reader(cv2.imread(str(TILTED / "board-00900.jpg")))
    assert reading["graves"] == truth["graves"]


def test_a_four_player_ghosts_game_by_touch_at_800x480(companion, browser):
    with kiosk(companion.app, browser, 800, 480) as page:
        start_by_touch(page, "new-ghosts", ghost_players="Ann, Bob, Cat, Dan", ghost_first="12, 40, 7, 33")
        page.wait_for_selector("text=Bob's turn: asking Cat")  # 40 is the highest first card
        # Bob searches: plays 23, the Flood Light West; Cat says no
        page.locator("[data-tombstone='23']").click()
        page.get_by_role("button", name="Search from 23").click()
        page.get_by_role("button", name="Flood W").click()
        assert page.locator("[data-testid=graveyard] .asked").count() == 10  # the first two columns outlined
        page.get_by_role("button", name="No", exact=True).click()
        page.wait_for_selector("text=Cat's turn: asking Dan")
        assert companion.table.state.said[-1]["asked"] == [1, 2, 11, 12, 21, 22, 31, 32, 41, 42]
        # Cat guesses 17: a decoy (a free turn), then 18: not a secret, and reveals her own 5
        page.locator("[data-tombstone='17']").click()
        page.get_by_role("button", name="Guess 17").click()
        page.get_by_role("button", name="A decoy").click()
        page.wait_for_selector("text=Cat guessed 17: a decoy")
        page.locator("[data-tombstone='18']").click()
        page.get_by_role("button", name="Guess 18").click()
        page.get_by_role("button", name="Not a secret").click()
        page.wait_for_selector("text=tap the secret you reveal")
        page.locator("[data-tombstone='5']").click()
        page.wait_for_selector("text=Dan's turn: asking Ann")
        players = companion.table.state.players
        assert players[3].revealed == (17,) and players[2].revealed == (5,)
        # Dan finds Ann's haunt
        page.locator("[data-tombstone='44']").click()
        page.get_by_role("button", name="Guess 44").click()
        page.get_by_role("button", name="My haunt!").click()
        page.wait_for_selector("text=Dan wins!")
        assert companion.table.view()["winner"] == "Dan"
        check_state(page, "ghosts-won", next_action=False)  # over: the Games menu starts the next
        shoot(page, "kiosk-ghosts", 800, 480)
        shoot(page, "kiosk-ghosts", 1920, 1080)


def test_a_flashlight_shape_is_entered_by_tapping_its_squares(companion, browser):
    companion.table.new_game("ghosts", {"players": ["Ann", "Bob"]})
    with kiosk(companion.app, browser, 800, 480) as page:
        page.locator("details.shapes summary").click()
        for cell in ("0,0", "1,0", "1,1"):
            page.locator(f"[data-testid=shape-editor] rect[data-cell='{cell}']").click()
        page.get_by_placeholder("name, e.g. candle").fill("Candle")
        page.locator("details.shapes select").select_option("Bob")
        page.get_by_role("button", name="Save flashlight").click()
        page.wait_for_selector("text=candle: 3 squares")
        assert companion.table.state.players[1].flashlight == "candle"


def test_a_mausoleum_buy_and_bury_by_touch_at_800x480(companion, browser):
    table = companion.table
    with kiosk(companion.app, browser, 800, 480) as page:
        start_by_touch(page, "new-mausoleum", maus_players="Ann, Bob")
        page.wait_for_selector("text=Ann's turn")
        for command in (  # Ann invites heir #9 ($5m), Bob offs it into her morgue
            {"type": "draw", "from": "deck"},
            {"type": "play", "card": 9},
            {"type": "next_turn"},
            {"type": "draw", "from": "deck"},
            {"type": "play", "card": 19, "heir": 9},
            {"type": "next_turn"},
        ):
            table.dispatch(command)
        page.wait_for_selector("[data-player=Ann] >> text=Morgue $5m")
        page.locator("[data-testid=shop] [data-card='42']").click()  # a $5m grave
        page.locator("[data-player=Ann] [data-card='9']").click()
        check_state(page, "mausoleum-buying")
        page.get_by_role("button", name="Buy and Bury").click()
        page.wait_for_selector("[data-player=Ann] >> text=Mausoleum $5m")
        check_state(page, "mausoleum-bought")
        page.get_by_role("button", name="End turn").click()
        page.wait_for_selector("text=Bob's turn")
        ann = table.state.seats[0]
        assert ann.mausoleum == (42,) and ann.morgue == () and 42 not in table.state.shop
        shoot(page, "kiosk-mausoleum", 800, 480)
        shoot(page, "kiosk-mausoleum", 1920, 1080)


def test_the_page_follows_the_table_through_the_live_server(companion, browser):
    from companion.app import live_server

    live = live_server(companion)
    companion.app.extensions["live_port"] = live.start("127.0.0.1", 0)
    try:
        with kiosk(companion.app, browser, 800, 480) as page:
            assert live.pages == 1  # the page's stream is on the live server, not a web thread
            companion.table.new_game("rolling-bones", {"players": ["Zed", "Yan"]})
            page.wait_for_selector("text=Zed")
            assert page.locator("#buttons button").first.is_enabled()  # access kept from /api/state
    finally:
        live.close()


def test_a_live_port_out_of_reach_falls_back_to_this_ports_stream(companion, browser):
    from ..servers import free_port

    companion.app.extensions["live_port"] = free_port()  # nothing listens there
    with kiosk(companion.app, browser, 800, 480) as page:  # live: via /events on the page's own port
        companion.table.new_game("rolling-bones", {"players": ["Zed", "Yan"]})
        page.wait_for_selector("text=Zed")


def test_a_live_port_that_never_answers_falls_back_to_this_ports_stream(companion, browser):
    import socket

    silent = socket.socket()  # listens, so the connection opens, but never says a word
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    companion.app.extensions["live_port"] = silent.getsockname()[1]
    try:
        with kiosk(companion.app, browser, 800, 480) as page:  # live within 15 s: this port's /events after 4 s
            companion.table.new_game("rolling-bones", {"players": ["Zed", "Yan"]})
            page.wait_for_selector("text=Zed")
    finally:
        silent.close()


def test_replacing_a_game_in_progress_asks_first_and_undo_brings_it_back(companion, browser):
    companion.table.new_game("rolling-bones", {"players": ["Ann", "Bob"]})
    companion.table.dispatch({"type": "roll", "faces": list(FACE_IDS)})
    with kiosk(companion.app, browser, 800, 480) as page:
        assert "inert" in page.locator("[data-button=seismic]").get_attribute("class")  # no Stage turn here
        start_by_touch(page, "new-sepulchre", sep_players="Cat, Dan")
        page.get_by_role("button", name="Keep playing").click()
        assert companion.table.game == "rolling-bones"
        page.locator("#new-sepulchre button").click()
        page.get_by_role("button", name="Replace it").click()
        page.wait_for_selector("[data-testid=graves] >> text=Cat")
        page.locator("[data-button=undo]").click()
        page.wait_for_selector("#bones:not([hidden])")
        assert companion.table.game == "rolling-bones" and companion.table.state.turn.loose


def test_a_forced_wrong_bone_is_said_and_its_slots_offered_as_buttons(companion, browser):
    companion.table.new_game("rolling-bones", {"players": ["Ann", "Bob"]})
    for command in (
        {"type": "roll", "faces": ["left-foot"] * 6 + ["right-foot"] * 6 + ["skull"] * 6},
        {"type": "lay", "face": "skull"},
        {"type": "pay", "dice": ["right-foot"]},
        {"type": "roll", "faces": ["left-foot"] * 6 + ["right-foot"] * 5 + ["spine"] * 5},
    ):
        companion.table.dispatch(command)
    with kiosk(companion.app, browser, 800, 480) as page:
        assert "wrong slot (-5)" in page.locator("[data-testid=forced]").inner_text()
        page.locator("[data-testid=loose-dice] button[title=spine]").first.click()
        page.get_by_role("button", name="spine in ribcage").click()
        page.wait_for_selector("[data-testid=skeleton] .slot.wrong")
        assert companion.table.state.turn.layout.slots["ribcage"] == "spine"


def test_sepulchre_played_to_a_win_by_touch_alone_at_800x480(companion, browser):
    with kiosk(companion.app, browser, 800, 480) as page:
        start_by_touch(page, "new-sepulchre", sep_players="Ann, Bob")
        page.wait_for_selector("[data-testid=graves] >> text=Ann")
        for skeleton in range(3):
            page.locator("[data-testid=graves-by-touch-open]").click()
            for piece, n in (("skull", 1), ("ribs", 1), ("pelvis", 1), ("arm", 2), ("leg", 2)):
                for _ in range(n):
                    page.get_by_role("button", name=f"one {piece} more in Ann").click()
            page.get_by_role("button", name="Record these counts").click()
            page.wait_for_selector(f"[data-testid=graves] >> text={skeleton + 1} complete skeleton")
            if skeleton < 2:
                page.locator("[data-button=turn]").click()  # Bob's turn
                page.wait_for_selector("text=Bob's turn")
                page.locator("[data-button=turn]").click()
                page.wait_for_selector("text=Ann's turn")
        page.wait_for_selector("text=Ann wins!")
        # a rule the counts break is refused, and can be recorded anyway by touch
        assert companion.table.view()["winner"] == "Ann"
        check_state(page, "sepulchre-won", next_action=False)
        shoot(page, "kiosk-sepulchre-by-touch", 800, 480)


def test_counts_a_rule_refuses_can_be_recorded_anyway_by_touch(companion, browser):
    companion.table.new_game("sepulchre", {"players": ["Ann", "Bob"]})
    with kiosk(companion.app, browser, 800, 480) as page:
        page.locator("[data-testid=graves-by-touch-open]").click()
        page.get_by_role("button", name="one arm more in Ann").click()  # an arm before a skull
        page.get_by_role("button", name="Record these counts").click()
        page.wait_for_selector("#toast >> text=skull first")
        page.get_by_role("button", name="Record anyway (override: the table agrees)").click()
        page.wait_for_selector("text=Overrides: counted by touch")
        assert companion.table.state.graves["Ann"]["arm"] == 1


def test_a_throw_entered_by_touch_is_recorded(companion, browser):
    companion.table.new_game("rolling-bones", {"players": ["Ann", "Bob"]})
    with kiosk(companion.app, browser, 800, 480) as page:
        page.locator("[data-testid=throw-by-touch-open]").click()
        for face in FACE_IDS:  # one of each face: six left, six right, six centre
            page.locator(f"[data-testid=throw-by-touch] button[title='add {face}']").click()
        page.locator("[data-testid=throw-by-touch] button[title='add skull']").click()  # a seventh centre die
        page.wait_for_selector("#toast >> text=all the center dice are in")
        page.get_by_role("button", name="Record this throw (18 dice)").click()
        page.wait_for_selector("[data-testid=loose-dice]")
        assert sorted(companion.table.state.turn.loose) == sorted(FACE_IDS)


def test_a_page_whose_first_state_request_fails_still_goes_live(server, page, companion):
    """The kiosk's Chromium can start before the server answers: the page tries again, never stays dead."""
    failed = []

    def first_fails(route):
        if not failed:
            failed.append(route.request.url)
            return route.abort("connectionrefused")
        return route.continue_()

    page.route("**/api/state", first_fails)
    page.goto(server + "/kiosk")
    live(page)
    assert failed, "the first /api/state was refused"
    companion.table.new_game("rolling-bones", {"players": ["Zed", "Yan"]})
    page.wait_for_selector("text=Zed")


def test_a_die_too_close_to_call_is_named_from_its_two_faces_first(tmp_path, pin_factory, browser):
    """A photo with a die too close to call (right lower leg or right thigh: the set's right thigh taught from its
    right lower legs' photos): the reader asks which, naming both; the naming sheet offers those two first, marked, and
    the table's tap names the die."""
    import random
    from pathlib import Path

    from companion import config
    from companion.app import build
    from companion.vision.reader import DiceReader

    from ..vision.dice_sets import taught_alike

    table = Path(__file__).resolve().parents[2] / "bench" / "data" / "dice" / "blender-table"
    settings = config.load()
    settings["camera"]["folder"] = str(table / "scene-01502.jpg")
    companion = build(settings, demo=True, pin_factory=pin_factory, instance=tmp_path / "inst", rng=random.Random(2))
    companion.referee.reader = taught_alike(DiceReader.enroll(table / "enroll"), "right-thigh", "right-lower-leg").read
    try:
        with kiosk(companion.app, browser, 1920, 1080) as page:
            page.locator("#buttons button[data-button=undertaker]").click()
            page.get_by_role("button", name="Name them on the photo").click()
            # (two such dice: the first one's mark lies under a cocked neighbour's)
            index = page.evaluate("state.referee.reading.unreadable.findLastIndex((u) => u.could_be)")
            could_be = page.evaluate(f"state.referee.reading.unreadable[{index}].could_be")
            page.locator("#sheet .mark").nth(index).click()
            assert page.locator("#sheet .mark.chosen").inner_text() == f"?{index + 1}"
            faces = page.locator("[data-testid=name-faces] button")
            assert faces.count() == len(FACE_IDS)
            assert [faces.nth(k).get_attribute("aria-label") for k in range(2)] == [f"it is {f}" for f in could_be]
            assert page.locator("[data-testid=name-faces] button.likely").count() == 2
            centre = page.evaluate(f"state.referee.reading.unreadable[{index}].center")
            page.locator(f"#sheet [aria-label='it is {could_be[1]}']").click()
            page.wait_for_function(f"state.referee.reading.dice.some((d) => d.named && d.face === '{could_be[1]}')")
            named = [d for d in companion.referee.reading.dice if d.get("named")]
            assert [(d["face"], d["center"]) for d in named] == [(could_be[1], centre)]
    finally:
        companion.close()
