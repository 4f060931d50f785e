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
    assert c["server"] == {"host": "0.0.0.0", "port": 9000}


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
