import re
from pathlib import Path

import pytest

from companion import config
from companion.errors import BadInput


def test_defaults_work_off_the_pi():
    c = config.load()
    assert c["server"]["port"] == 8000 and c["rolling_bones"]["target"] == 100


def test_user_file_overrides_one_key(tmp_path):
    f = tmp_path / "c.toml"
    f.write_text("[server]\nport = 9000\n")
    c = config.load(f)
    assert c["server"] == {"host": "0.0.0.0", "port": 9000, "hosts": [], "live_port": 0}


def test_broken_user_file_is_one_line(tmp_path):
    f = tmp_path / "c.toml"
    f.write_text("[server\n")
    with pytest.raises(BadInput, match="not valid TOML"):
        config.load(f)
    with pytest.raises(BadInput, match="not found"):
        config.load(tmp_path / "missing.toml")


def test_store_path_defaults_to_the_data_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert config.store_path(config.load()) == tmp_path / "crypt-companion" / "table.sqlite3"


@pytest.mark.parametrize(
    "text, message",
    [
        ("[server]\nprot = 9000\n", "unknown setting 'server.prot' (known in [server]: host, hosts, live_port, port)"),
        ("[camra]\nsource = 'usb'\n", "unknown setting 'camra'"),
        ("[pins.buttons]\nturn = 4\nundo = 5\n", "unknown setting 'pins.buttons.undo'"),
        ("server = 9000\n", "server must be a [server] table"),
        ('[server]\nport = "abc"\n', 'server.port must be a whole number like its default 8000, not "abc"'),
        ('[server]\nhosts = "pi.lan"\n', 'server.hosts must be a list like its default [], not "pi.lan"'),
        ("[server]\nhosts = [1]\n", "server.hosts must be a list"),
        ("[pins.timing]\nhold_s = true\n", "pins.timing.hold_s must be a number like its default 2.0, not true"),
        ("[pins.leds]\nseats = [5, 'six']\n", "pins.leds.seats must be a list like its default [5, 6, 13, 19]"),
    ],
)
def test_an_unknown_or_misplaced_setting_is_one_line_naming_it(tmp_path, text, message):
    f = tmp_path / "c.toml"
    f.write_text(text)
    with pytest.raises(BadInput, match=re.escape(message)):
        config.load(f)


def test_every_setting_the_docs_show_is_accepted(tmp_path):
    f = tmp_path / "c.toml"
    f.write_text(
        '[dice]\nset = "mine"\n[sepulchre]\ngraves = "g.json"\n[pins.leds]\nbuzzer = -1\n[camera]\nsource = "usb"\n'
    )
    c = config.load(f)
    assert c["dice"]["set"] == "mine" and c["pins"]["leds"]["buzzer"] == -1 and c["pins"]["buttons"]["turn"] == 17


def test_the_pis_config_file_is_accepted():
    deployed = config.load(Path(__file__).resolve().parents[1] / "deploy" / "config.toml")
    assert deployed["camera"]["source"] == "picamera2"
