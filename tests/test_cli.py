"""The CLI formats of rules/*.md, run as a real subprocess."""

import json

import pytest

LAYOUT = {
    "slots": {
        "skull": "skull",
        "ribcage": "ribcage",
        "left-upper-arm": "left-upper-arm",
        "left-forearm": "left-forearm",
        "left-hand": "left-hand",
        "spine": "right-foot",
    },
    "hat": True,
}


def test_bones_score_json(run_cli):
    done = run_cli("bones", "score", "layout.json", "--json", files={"layout.json": LAYOUT})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "score": 4,
        "sections": {"thorax": -3, "left-arm": 5, "right-arm": 0, "left-leg": 0, "right-leg": 0},
        "correct": 5,
        "wrong": 1,
        "hat": True,
    }


def test_bones_score_human(run_cli):
    done = run_cli("bones", "score", "layout.json", files={"layout.json": LAYOUT})
    assert done.returncode == 0 and done.stdout.startswith("4 points")


def test_bones_best_json(run_cli):
    roll = {
        "faces": ["skull", "ribcage", "left-hand", "gravestone", "hat", "left-upper-arm", "left-forearm"],
        "layout": {"slots": {}, "hat": False},
    }
    done = run_cli("bones", "best", "roll.json", "--json", files={"roll.json": roll})
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result == {
        "score": (2 + 5) * 2,
        "can_bury": True,
        "layout": {
            "slots": {
                "skull": "skull",
                "ribcage": "ribcage",
                "left-upper-arm": "left-upper-arm",
                "left-forearm": "left-forearm",
                "left-hand": "left-hand",
            },
            "hat": True,
        },
    }


@pytest.mark.parametrize(
    "name, content, message",
    [
        ("gap.json", {"slots": {"skull": "skull", "spine": "spine"}, "hat": False}, "gap"),
        ("hat.json", {"slots": {}, "hat": True}, "real skull"),
        ("slot.json", {"slots": {"tail": "skull"}}, "unknown slot"),
        ("face.json", {"slots": {"skull": "bat"}}, "unknown face"),
        ("grave.json", {"slots": {"skull": "gravestone"}}, "gravestone"),
        ("broken.json", "{not json", "not valid JSON"),
    ],
)
def test_bones_score_bad_layouts(run_cli, name, content, message):
    done = run_cli("bones", "score", name, "--json", files={name: content})
    assert done.returncode == 2
    assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr


def test_missing_file_is_one_line(run_cli):
    done = run_cli("bones", "best", "nope.json", "--json")
    assert done.returncode == 2 and "no such file" in done.stderr


def test_bones_best_rejects_unknown_face(run_cli):
    done = run_cli(
        "bones", "best", "r.json", "--json", files={"r.json": {"faces": ["skull", "wing"], "layout": {"slots": {}}}}
    )
    assert done.returncode == 2 and "wing" in done.stderr


ADVISE_STATE = {
    "layout": {"slots": {"skull": "skull", "ribcage": "ribcage", "spine": "spine", "pelvis": "pelvis"}, "hat": False},
    "roll": ["hat", "gravestone", "left-upper-arm"],
    "dice": {"left": 1, "right": 0, "center": 2},
    "post_op": 3,
    "score": 60,
    "opponents": [40],
    "target": 100,
}


def test_bones_advise_json(run_cli):
    done = run_cli("bones", "advise", "state.json", "--json", files={"state.json": ADVISE_STATE})
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    # Post-op roll 3 costs 3 dice and only 3 are here: no roll again, so lay all and bury: (5 + 1) * 2.
    assert result["action"]["then"] == "bury" and result["expected"] == 12 and result["exact"] is True
    assert {"face": "hat", "slot": "skull"} in result["action"]["lay"]
    assert all(o["expected"] <= result["expected"] for o in result["options"])
    assert result["win"]["agree"] is True and 0 < result["win"]["action"]["chance"] <= 1


def test_bones_advise_human(run_cli):
    done = run_cli("bones", "advise", "state.json", files={"state.json": ADVISE_STATE})
    assert done.returncode == 0 and done.stdout.startswith("lay ") and "bury" in done.stdout


@pytest.mark.parametrize(
    "state, message",
    [
        ({"layout": {"slots": {}}}, '"roll"'),
        ({"roll": ["skull"], "post_op": 0}, "post_op"),
        ({"roll": ["skull"], "dice": {"left": 1}}, "dice says"),
        ({"roll": ["skull"] * 7}, "only 6"),
        ({"roll": ["skull"], "mood": "brave"}, "unknown field"),
        ({"roll": ["skull", "wing"]}, "wing"),
        ({"roll": ["skull"] * 6 + ["left-foot"] * 6, "post_op": 5}, "18"),
        ({"roll": ["skull"], "opponents": [3]}, "own score"),
        ([1, 2], "JSON object"),
    ],
)
def test_bones_advise_bad_states_are_one_line(run_cli, state, message):
    done = run_cli("bones", "advise", "s.json", "--json", files={"s.json": state})
    assert done.returncode == 2, done.stdout
    assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1


SCENARIO = {
    "map": ["#########", "#...~~..#", "#.O.....#", "#########"],
    "characters": [{"id": "brienne", "pos": [1, 1], "hp": 9, "max_hp": 10, "armor": 12, "shield": 0, "stealth": False}],
    "monsters": [
        {
            "id": "ghoul-1",
            "pos": [7, 2],
            "hp": 6,
            "move": 3,
            "armor": 10,
            "attack": {"modifier": 3, "range": [1, 1], "damage": 2, "kind": "line", "targets": 1},
        }
    ],
    "rolls": [19, 14, 3],
}


def test_tomb_stage_turn_json(run_cli):
    done = run_cli("tomb", "stage-turn", "s.json", "--json", files={"s.json": SCENARIO})
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["seismic"] == {"roll": 19, "quake": True}
    assert set(out) == {"seismic", "activations", "characters", "monsters", "stage_complete", "party_defeated"}
    activation = out["activations"][0]
    assert set(activation) == {"monster", "from", "to", "focus", "modifier", "attacks", "fled_to", "why"}
    assert activation["from"] == [7, 2] and activation["to"] == [5, 1] and activation["focus"] == "brienne"
    assert out["characters"] == [{"id": "brienne", "pos": [1, 1], "hp": 8, "defeated": False}]
    assert out["monsters"] == [{"id": "ghoul-1", "pos": [5, 1], "hp": 6, "defeated": False}]


def test_tomb_stage_turn_report_and_check(run_cli):
    done = run_cli("tomb", "stage-turn", "s.json", files={"s.json": SCENARIO})
    assert done.returncode == 0 and "QUAKE" in done.stdout and "ghoul-1" in done.stdout
    done = run_cli("tomb", "check", "s.json", files={"s.json": SCENARIO})
    assert done.returncode == 0 and "#A..~~..#" in done.stdout and done.stdout.strip().endswith("9x4 map")


def test_tomb_bad_scenario(run_cli):
    bad = dict(SCENARIO, map=["#########", "#...~X..#", "#.O.....#", "#########"])
    done = run_cli("tomb", "stage-turn", "s.json", "--json", files={"s.json": bad})
    assert done.returncode == 2 and "row 1, column 5" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_output_cut_short_by_its_reader_is_no_error(tmp_path):
    """`companion … --json | head -c 20`: the reader may close the pipe before we write; no traceback, exit 0."""
    import os
    import subprocess
    import sys

    (tmp_path / "layout.json").write_text(json.dumps(LAYOUT))
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before we write a byte
    try:
        completed = subprocess.run(
            [sys.executable, "-m", "companion.cli", "bones", "score", "layout.json", "--json"],
            cwd=tmp_path,
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    finally:
        os.close(write_end)
    assert completed.returncode == 0 and completed.stderr == ""


@pytest.mark.parametrize(
    "content, message",
    [
        ("[" * 1000 + "]" * 1000, "nested more than 64 deep"),
        ('{"roll": ' + "[" * 70 + "]" * 70 + "}", "nested more than 64 deep"),
        ('{"roll": [' + "9" * 4301 + "]}", "not valid JSON"),
    ],
)
def test_json_a_parser_chokes_on_is_one_line(run_cli, content, message):
    for command in (["bones", "score"], ["bones", "advise"], ["tomb", "stage-turn"]):
        done = run_cli(*command, "in.json", files={"in.json": content})
        assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1 and message in done.stderr


def test_an_advice_target_too_big_to_work_out_is_one_line(run_cli):
    state = {"roll": ["skull", "ribcage", "spine"], "score": 10, "opponents": [20], "target": 1_000_000}
    done = run_cli("bones", "advise", "s.json", "--json", files={"s.json": state})
    assert done.returncode == 2 and "target must be a whole number from 1 to 10000" in done.stderr


def test_python_dash_m_companion_is_the_companion_command(tmp_path):
    import subprocess
    import sys

    (tmp_path / "layout.json").write_text(json.dumps(LAYOUT))
    command = ["bones", "score", "layout.json", "--json"]
    by_module = subprocess.run(
        [sys.executable, "-m", "companion", *command], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    by_cli = subprocess.run(
        [sys.executable, "-m", "companion.cli", *command], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert by_module.returncode == 0 and by_module.stdout == by_cli.stdout and json.loads(by_module.stdout)
    wrong = subprocess.run(
        [sys.executable, "-m", "companion", "bones", "score", "nope.json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert wrong.returncode == 2 and wrong.stderr.strip() == "companion: nope.json: no such file"
