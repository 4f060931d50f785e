"""CLI inputs, fuzzed: any JSON file gives an answer or a one-line error with exit 2, never a traceback."""

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cli import main

from .web.test_fuzz import values

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "150"))
COMMANDS = [["bones", "score"], ["bones", "best"], ["tomb", "stage-turn"], ["tomb", "check"]]
maps = st.lists(st.text(alphabet=".#O~Gg?X", min_size=1, max_size=6), min_size=1, max_size=4)
pieces = st.fixed_dictionaries(
    {
        "id": st.text(max_size=3),
        "pos": st.lists(st.integers(-1, 6), max_size=3),
        "hp": st.integers(-1, 5),
        "armor": st.integers(0, 15),
        "move": st.integers(-1, 4),
        "attack": st.fixed_dictionaries(
            {
                "modifier": st.integers(-2, 5),
                "range": st.lists(st.integers(-1, 4), max_size=3),
                "damage": st.integers(-1, 3),
            }
        ),
    }
)
scenarios = st.fixed_dictionaries(
    {
        "map": maps,
        "characters": st.lists(pieces, max_size=2),
        "monsters": st.lists(pieces, max_size=2),
        "rolls": st.lists(st.integers(0, 21), max_size=4),
    }
)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(command=st.sampled_from(COMMANDS), body=st.one_of(values, scenarios))
def test_cli_never_tracebacks(tmp_path, capsys, command, body):
    path = tmp_path / "in.json"
    path.write_text(json.dumps(body))
    try:
        code = main([*command, str(path), "--json"] if command[1] != "check" else [*command, str(path)])
    except SystemExit as exit_:  # argparse
        code = exit_.code
    out, err = capsys.readouterr()
    assert code in (0, 2), (command, body, err)
    if code == 2:
        assert err.startswith("companion: ") and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    elif command[1] != "check":
        json.loads(out)


@pytest.mark.parametrize("text", ["", "{", "\x00\xff", "[1, 2", "nul"])
def test_cli_unparseable_files(tmp_path, capsys, text):
    path = tmp_path / "in.json"
    path.write_bytes(text.encode("latin-1"))
    assert main(["tomb", "stage-turn", str(path), "--json"]) == 2
    assert "companion: " in capsys.readouterr().err
