"""Every route through the Flask test client, including its error answers."""

import json
from math import comb

import pytest

from companion.games.rolling_bones.dice import FACE_IDS
from companion.web.tomb import demo_stage

PERFECT = list(FACE_IDS)  # every face once: a perfect skeleton, the hat and a gravestone
PHONE = {"REMOTE_ADDR": "192.0.2.7"}


def test_pages_render(client):
    for path in ("/", "/kiosk"):
        page = client.get(path)
        assert page.status_code == 200 and b"Crypt Companion" in page.data and b"app.js" in page.data
    assert b'class="kiosk"' in client.get("/kiosk").data


def test_state_is_json_with_a_csrf_token(client):
    state = client.get("/api/state").get_json()
    assert state["game"] == "rolling-bones" and state["players"] == ["Ann", "Bob"] and state["csrf"]


def test_changes_need_the_csrf_token(client):
    answer = client.post("/api/command", json={"type": "roll", "faces": PERFECT})
    assert answer.status_code == 403 and "CSRF" in answer.get_json()["error"]


def test_a_roll_then_lays_then_bury(api, companion):
    assert api("/api/command", {"type": "roll", "faces": PERFECT}).status_code == 200
    for face in ["skull", "ribcage", "hat"]:
        assert api("/api/command", {"type": "lay", "face": face}).status_code == 200
    state = api("/api/command", {"type": "bury"}).get_json()
    assert state["scores"] == [4, 0] and state["turn"]["outcome"] == "buried"


def test_best_hint(client, api):
    assert client.get("/api/bones/best").get_json() == {"best": None}
    api("/api/command", {"type": "roll", "faces": PERFECT})
    best = client.get("/api/bones/best").get_json()["best"]
    assert best["score"] == 50 and best["can_bury"] is True


def test_advice_for_the_dice_on_the_table(client, api):
    assert client.get("/api/bones/advice").get_json() == {"advice": None}
    api("/api/command", {"type": "roll", "faces": PERFECT})
    advice = client.get("/api/bones/advice").get_json()["advice"]
    assert advice["action"]["then"] == "bury" and advice["expected"] == 50
    assert "bury" in advice["summary"] and advice["win"]["action"]["then"] == "bury"


@pytest.mark.parametrize(
    "body, status, message",
    [
        ({"type": "lay", "face": "skull"}, 409, "no roll"),
        ({"type": "dance"}, 400, "unknown Rolling Bones command"),
        ({"type": "roll", "faces": ["skull"]}, 409, "must have 6 left"),
        ({"type": "roll", "faces": "skull"}, 400, "list of face ids"),
        ({"nothing": 1}, 400, '"type"'),
    ],
)
def test_refused_commands_answer_4xx_with_a_message(api, body, status, message):
    answer = api("/api/command", body)
    assert answer.status_code == status and message in answer.get_json()["error"]


def test_body_that_is_not_json(client, api):
    answer = client.post(
        "/api/command", data="{oops", content_type="application/json", headers={"X-CSRF-Token": api.token}
    )
    assert answer.status_code == 400 and "JSON object" in answer.get_json()["error"]


def test_virtual_throw_and_undo(api, companion):
    state = api("/api/bones/throw").get_json()
    assert state["turn"]["phase"] == "lay" and len(state["turn"]["loose"]) == 18
    state = api("/api/undo").get_json()
    assert state["turn"]["phase"] == "throw"
    assert api("/api/undo").status_code == 409


def test_new_game_and_bad_setups(api):
    assert api("/api/new-game", {"game": "rolling-bones", "setup": {"players": ["x", "y", "z"]}}).get_json()[
        "players"
    ] == ["x", "y", "z"]
    assert api("/api/new-game", {"game": "chess", "setup": {}}).status_code == 400
    answer = api("/api/new-game", {"game": "rolling-bones", "setup": {"players": ["solo"]}})
    assert answer.status_code == 400 and "at least 2" in answer.get_json()["error"]
    answer = api(
        "/api/new-game",
        {"game": "dark-tomb", "setup": {"scenario": {"map": ["..X"], "characters": [], "monsters": []}}},
    )
    assert answer.status_code == 400 and "row 0, column 2" in answer.get_json()["error"]


def test_dark_tomb_round(api, client):
    state = api("/api/new-game", {"game": "dark-tomb", "setup": {"scenario": demo_stage()}}).get_json()
    assert state["whose_turn"] == "brienne"
    assert api("/api/button/seismic").status_code == 409  # not the Stage's turn yet
    api("/api/button/turn")
    state = api("/api/button/turn").get_json()
    assert state["whose_turn"] == "stage"
    assert api("/api/button/turn").status_code == 409  # the Stage turn must run first
    state = api("/api/command", {"type": "stage_turn", "rolls": [19, 10, 10, 10, 10, 10]}).get_json()
    assert state["last_turn"]["seismic"] == {"roll": 19, "quake": True}
    hp = [c["hp"] for c in state["scenario"]["characters"]]
    assert hp[0] <= 9 and hp[1] <= 7  # the quake hurt both (monsters may add to it)
    assert all(a["why"] for a in state["last_turn"]["activations"])
    state = api("/api/button/turn").get_json()
    assert state["whose_turn"] == "brienne" and state["round"] == 2
    state = api("/api/command", {"type": "reveal", "cell": [13, 5], "terrain": "."}).get_json()
    assert state["scenario"]["map"][5][13] == "."
    assert api("/api/command", {"type": "reveal", "cell": [1, 1]}).status_code == 409
    assert api("/api/command", {"type": "paint", "cell": [99, 1], "terrain": "#"}).status_code == 400
    assert (
        api("/api/command", {"type": "paint", "cell": [1, 1], "terrain": "#"}).status_code == 400
    )  # brienne stands there
    assert api("/api/command", {"type": "stage_turn", "rolls": [0]}).status_code in (400, 409)
    assert client.get("/api/tomb/demo-stage").get_json()["map"]


def test_phones_read_but_need_the_pin_to_change(companion):
    phone = companion.app.test_client()
    state = phone.get("/api/state", environ_base=PHONE).get_json()
    assert state["access"]["may_change"] is False
    token = state["csrf"]
    answer = phone.post("/api/command", json={"type": "next_turn"}, headers={"X-CSRF-Token": token}, environ_base=PHONE)
    assert answer.status_code == 403 and "PIN" in answer.get_json()["error"]
    answer = phone.post("/api/login", json={"pin": "1234"}, headers={"X-CSRF-Token": token}, environ_base=PHONE)
    assert answer.status_code == 403 and "no table PIN" in answer.get_json()["error"]


def test_pin_set_on_the_pi_then_phone_logs_in(companion, api):
    assert api("/api/pin", {"pin": "12"}).status_code == 400
    assert api("/api/pin", {"pin": "2468"}).status_code == 200
    phone = companion.app.test_client()
    token = phone.get("/api/state", environ_base=PHONE).get_json()["csrf"]

    def post(path, body):
        return phone.post(path, json=body, headers={"X-CSRF-Token": token}, environ_base=PHONE)

    assert post("/api/login", {"pin": "0000"}).status_code == 403
    assert post("/api/pin", {"pin": "9999"}).status_code == 403
    assert post("/api/login", {"pin": "2468"}).status_code == 200
    assert post("/api/bones/throw", {}).status_code == 200


def test_unknown_pages_and_methods(client):
    assert client.get("/nope").status_code == 404
    assert client.get("/api/command").status_code == 405
    assert client.get("/photos/..%2Fsecret_key").status_code == 404


def test_uploads_are_size_limited(client, api):
    big = json.dumps({"type": "load", "scenario": {"map": ["." * 1000] * 9000}})
    answer = client.post("/api/command", data=big, content_type="application/json", headers={"X-CSRF-Token": api.token})
    assert answer.status_code == 413


def test_head_requests_to_the_live_stream_hold_no_subscription(client, companion):
    for _ in range(50):
        assert client.head("/events").status_code == 200
    assert companion.table.bus.subscribers == 0


def test_a_stream_that_starts_and_closes_lets_its_subscription_go(client, companion):
    answer = client.get("/events", buffered=False)
    chunks = answer.response
    assert next(iter(chunks)).startswith(b": connected") and companion.table.bus.subscribers == 1
    answer.close()
    assert companion.table.bus.subscribers == 0


@pytest.mark.parametrize("token", ["é" * 32, "\u00ff\u00fe"])
def test_a_csrf_token_that_is_not_ascii_is_refused_not_a_crash(client, token):
    client.get("/api/state")
    for path in ("/api/command", "/api/login"):
        answer = client.post(path, json={"type": "next_turn", "pin": "1234"}, headers={"X-CSRF-Token": token})
        assert answer.status_code == 403 and "CSRF" in answer.get_json()["error"]


@pytest.mark.parametrize("pin", ["٠٩٣٧", "²³⁴⁵", "１２３４"])
def test_a_table_pin_is_ascii_digits(api, companion, pin):
    answer = api("/api/pin", {"pin": pin})
    assert answer.status_code == 400 and "0-9" in answer.get_json()["error"]
    assert api("/api/pin", {"pin": "2468"}).status_code == 200
    phone = companion.app.test_client()
    token = phone.get("/api/state", environ_base=PHONE).get_json()["csrf"]
    answer = phone.post("/api/login", json={"pin": pin}, headers={"X-CSRF-Token": token}, environ_base=PHONE)
    assert answer.status_code == 403 and answer.get_json()["error"] == "wrong PIN"


def test_teaching_the_dice_says_what_is_missing_in_one_line(client, api):
    assert client.get("/api/dice/teach").get_json()["photos"] == 0
    no_camera = api("/api/dice/teach/photo")
    assert no_camera.status_code == 409 and "no camera" in no_camera.get_json()["error"]
    no_photos = api("/api/dice/teach/learn")
    assert no_photos.status_code == 400 and "no photos of the teaching sheet" in no_photos.get_json()["error"]
    assert client.post("/api/dice/teach/clear").status_code == 403  # a change: CSRF token and PIN as any other
    sheet = client.get("/teaching-sheet.png")
    assert sheet.status_code == 200 and sheet.mimetype == "image/png" and sheet.data[:4] == b"\x89PNG"


def test_teaching_the_pieces_says_what_is_missing_in_one_line(client, api, companion):
    status = client.get("/api/pieces/teach").get_json()
    assert status["photos"] == {"skull": 0, "ribs": 0, "pelvis": 0, "arm": 0, "leg": 0} and status["needed"] == 3
    wrong = api("/api/pieces/teach/photo", {"type": "femur"})
    assert wrong.status_code == 400 and "type must be one of skull, ribs" in wrong.get_json()["error"]
    assert api("/api/pieces/teach/photo", {"type": "skull"}).get_json()["photos"]["skull"] == 1  # the demo's camera
    api("/api/pieces/teach/photo", {"type": "arm"})  # a skull photographed as an arm: taken back, the skull kept
    back = api("/api/pieces/teach/undo").get_json()
    assert back["taken_back"] == "arm" and back["photos"]["arm"] == 0 and back["photos"]["skull"] == 1
    missing = api("/api/pieces/teach/learn")
    assert missing.status_code == 400 and "no photo of a rib comb yet" in missing.get_json()["error"]
    for kind in ("ribs", "pelvis", "arm", "leg"):  # the demo's camera: whole boards, not one piece alone
        api("/api/pieces/teach/photo", {"type": kind})
    crowded = api("/api/pieces/teach/learn").get_json()["error"]
    assert crowded.startswith("the skull photo 1: expected one piece in the photo, found"), crowded
    assert client.post("/api/pieces/teach/clear").status_code == 403  # a change: CSRF token and PIN as any other
    assert api("/api/pieces/teach/clear").get_json()["photos"]["skull"] == 0
    nothing = api("/api/pieces/teach/undo")
    assert nothing.status_code == 400 and nothing.get_json()["error"] == "no photo to take back"
    companion.referee.board_camera = None
    no_camera = api("/api/pieces/teach/photo", {"type": "leg"})
    assert no_camera.status_code == 409 and "no camera" in no_camera.get_json()["error"]
    companion.referee.graves = None
    no_graves = api("/api/pieces/teach/learn")
    assert no_graves.status_code == 409 and "no graves to read" in no_graves.get_json()["error"]


def phone_of(companion, address="192.0.2.7"):
    """A phone on the table's network: its own cookie jar, its address, the page's CSRF token."""
    phone = companion.app.test_client()
    where = {"REMOTE_ADDR": address}
    token = phone.get("/api/state", environ_base=where).get_json()["csrf"]

    def post(path, body, address=address):
        return phone.post(path, json=body, headers={"X-CSRF-Token": token}, environ_base={"REMOTE_ADDR": address})

    return post


def test_wrong_pins_make_the_phone_wait_longer_each_time(api, companion):
    from companion.web.throttle import FREE_TRIES, WrongPins

    now = [1000.0]
    companion.app.extensions["wrong_pins"] = WrongPins(clock=lambda: now[0])
    assert api("/api/pin", {"pin": "2468"}).status_code == 200
    post = phone_of(companion)
    for _ in range(FREE_TRIES):
        assert post("/api/login", {"pin": "0000"}).get_json()["error"] == "wrong PIN"
    refused = post("/api/login", {"pin": "2468"})  # even the right PIN waits its turn
    assert refused.status_code == 429 and refused.get_json()["error"] == "too many wrong PINs: try again in 1 s"
    now[0] += 1
    assert post("/api/login", {"pin": "1111"}).status_code == 403
    assert "try again in 2 s" in post("/api/login", {"pin": "2468"}).get_json()["error"]
    assert phone_of(companion, "192.0.2.8")("/api/login", {"pin": "2468"}).status_code == 200  # another phone
    now[0] += 2
    assert post("/api/login", {"pin": "2468"}).status_code == 200


def test_the_longest_wait_is_bounded_and_a_right_pin_starts_afresh():
    from companion.web.throttle import LONGEST_WAIT_S, WrongPins

    now = [0.0]
    pins = WrongPins(clock=lambda: now[0])
    for _ in range(1100):  # a patient guesser, 12 an hour for 90 hours: 2**1095 s once overflowed a float
        now[0] += pins.wait("a")
        pins.wrong("a")
    assert pins.wait("a") == LONGEST_WAIT_S
    pins.right("a")
    assert pins.wait("a") == 0


def test_a_phone_session_ends_with_a_new_pin_another_address_or_a_restart(api, companion):
    from companion.web import create_app

    assert api("/api/pin", {"pin": "2468"}).status_code == 200
    phone = companion.app.test_client()
    token = phone.get("/api/state", environ_base=PHONE).get_json()["csrf"]

    def throw(address="192.0.2.7", app_client=phone):
        answer = app_client.post(
            "/api/bones/throw", json={}, headers={"X-CSRF-Token": token}, environ_base={"REMOTE_ADDR": address}
        )
        return answer.status_code

    phone.post("/api/login", json={"pin": "2468"}, headers={"X-CSRF-Token": token}, environ_base=PHONE)
    assert throw() == 200
    assert throw("192.0.2.99") == 403  # the cookie carried to another machine
    assert api("/api/pin", {"pin": "1357"}).status_code == 200
    assert throw() == 403
    phone.post("/api/login", json={"pin": "1357"}, headers={"X-CSRF-Token": token}, environ_base=PHONE)
    assert api("/api/undo").status_code == 200 and throw() == 200
    # the server started again: the same instance folder (secret key, PIN), a new run
    restarted = create_app(companion.table, companion.referee, instance_path=companion.app.instance_path).test_client()
    cookie = phone.get_cookie("session")
    restarted.set_cookie(cookie.key, cookie.value)
    assert api("/api/undo").status_code == 200 and throw(app_client=restarted) == 403


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1:8000", "192.168.1.20", "[::1]:8000", "[fe80::1]"])
def test_requests_to_the_pis_addresses_and_names_are_answered(client, host):
    assert client.get("/api/state", headers={"Host": host}).status_code == 200


def test_requests_to_other_names_are_refused(client):
    import socket

    own = socket.gethostname().split(".")[0]
    assert client.get("/api/state", headers={"Host": f"{own}.local:8000"}).status_code == 200
    for host in ("attacker.example", "attacker.example:8000", "localhost.attacker.example"):
        answer = client.get("/", headers={"Host": host})
        assert answer.status_code == 400 and "[server] hosts" in answer.get_json()["error"]


def test_a_name_in_the_config_is_answered(tmp_path, pin_factory):
    from companion import config
    from companion.app import build

    settings = config.load()
    settings["server"]["hosts"] = ["Crypt-Table.lan"]
    built = build(settings, demo=True, pin_factory=pin_factory, instance=tmp_path / "i")
    try:
        client = built.app.test_client()
        assert client.get("/api/state", headers={"Host": "crypt-table.lan:8000"}).status_code == 200
        assert client.get("/api/state", headers={"Host": "other.lan"}).status_code == 400
    finally:
        built.close()


def logged(companion) -> list:
    store = companion.table.store
    return [e.payload for e in store.events(store.latest_session().id)]


@pytest.mark.parametrize("depth", [100, 999, 5000])
def test_json_nested_too_deep_is_a_400_and_nothing_is_stored(client, api, companion, depth):
    before = logged(companion)
    body = '{"type": "roll", "faces": ' + "[" * depth + "]" * depth + "}"
    answer = client.post(
        "/api/command", data=body, content_type="application/json", headers={"X-CSRF-Token": api.token}
    )
    assert answer.status_code == 400 and "nests more than 64 deep" in answer.get_json()["error"]
    assert logged(companion) == before


def test_a_command_is_logged_without_the_keys_its_rule_does_not_read(api, companion):
    junk = "x" * 100_000
    assert api("/api/command", {"type": "roll", "faces": PERFECT, "junk": junk, "more": [junk]}).status_code == 200
    assert api("/api/command", {"type": "lay", "face": "skull", "why": junk}).status_code == 200
    assert logged(companion)[-2:] == [{"type": "roll", "faces": PERFECT}, {"type": "lay", "face": "skull"}]


def test_a_game_to_a_huge_target_is_refused_and_advice_bounds_its_work(api, client):
    answer = api("/api/new-game", {"game": "rolling-bones", "setup": {"players": ["A", "B"], "target": 1_000_000}})
    assert answer.status_code == 400 and "from 1 to 10000" in answer.get_json()["error"]
    assert (
        api("/api/new-game", {"game": "rolling-bones", "setup": {"players": ["A", "B"], "target": 5000}}).status_code
        == 200
    )
    api("/api/command", {"type": "roll", "faces": PERFECT})
    api("/api/command", {"type": "lay", "face": "skull"})
    api("/api/command", {"type": "bury"})
    api("/api/command", {"type": "next_turn"})
    api("/api/command", {"type": "roll", "faces": PERFECT})
    advice = client.get("/api/bones/advice").get_json()["advice"]
    assert advice["action"] and "at most 300 points" in advice["win_skipped"]


def test_ghosts_advice_for_a_player_with_their_hand(client, api):
    assert client.get("/api/ghosts/advice").status_code == 409  # a Rolling Bones game is on the table
    api("/api/new-game", {"game": "ghosts", "setup": {"players": ["Ann", "Bob"], "first_cards": [40, 12]}})
    api("/api/command", {"type": "search", "played": 23, "light": "flood", "direction": "W", "answer": True})
    public = client.get("/api/ghosts/advice?player=Ann").get_json()
    # 47 open tombstones, 9 of them under the light: every set but those with none under it
    assert public["consistent"] == comb(47, 3) - comb(38, 3)
    mine = client.get("/api/ghosts/advice?player=Ann&hand=1,2&over=33").get_json()
    assert "1" not in mine["secret"] and "2" not in mine["secret"]  # my cards are no one's secret
    assert mine["consistent"] == comb(45, 3) - comb(38, 3)
    assert mine["searches"][0]["bits"] == max(s["bits"] for s in mine["searches"])
    for query, said in [
        ("player=Zed", "no player called 'Zed'"),
        ("over=51", "1-50"),
        ("hand=x", "1-50"),
        ("hand=1,2,3,4,5,6", "at most 5"),
    ]:
        answer = client.get(f"/api/ghosts/advice?{query}")
        assert answer.status_code == 400 and said in answer.get_json()["error"]


def test_the_turn_button_in_ghosts_says_the_turn_passes_by_itself(api):
    api("/api/new-game", {"game": "ghosts", "setup": {"players": ["Ann", "Bob"]}})
    answer = api("/api/command", {"type": "next_turn"})
    assert answer.status_code == 409 and "passes by itself" in answer.get_json()["error"]


def test_a_mausoleum_card_corrected_on_the_page_is_kept_for_the_next_game(client, api, companion):
    assert api("/api/new-game", {"game": "mausoleum", "setup": {"players": ["Ann", "Bob"]}}).status_code == 200
    assert client.get("/api/mausoleum/cards").get_json()["cards"][0]["checked"] is False
    answer = api("/api/mausoleum/correct", {"card": 1, "name": "Loving Grandfather", "value": 6})
    assert answer.status_code == 200 and answer.get_json()["cards"][0]["value"] == 6
    api("/api/new-game", {"game": "mausoleum", "setup": {"players": ["Cat", "Dan"]}})
    first = companion.table.view()["cards"][0]
    assert first == {"card": 1, "kind": "heir", "name": "Loving Grandfather", "value": 6, "checked": True}
    bad = api("/api/mausoleum/correct", {"card": 19, "value": 3})
    assert bad.status_code == 400 and "only heirs and graves" in bad.get_json()["error"]
    assert (
        api("/api/command", {"type": "play", "card": 1}).get_json()["error"]
        == "Cat draws first (from the deck or the discard pile)"
    )
