"""What ships: the wheel holds every file of the package, and the app runs from it alone.

deploy/install.sh installs with `pip install .` (not -e): a file left out of the wheel
reaches the Pi as a 500. This builds the wheel, installs it into a fresh venv that sees
the test venv's dependencies but not this source tree, and starts the server from it.
"""

import os
import shutil
import subprocess
import sys
import sysconfig
import urllib.request
from pathlib import Path

import pytest

from .servers import free_port, wait_until_up

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A venv with only the built wheel in it; dependencies come from the test venv by a .pth line."""
    tmp = tmp_path_factory.mktemp("wheel")
    source = tmp / "source"  # a clean copy: a stale build/ in the work tree could hide a missing file
    shutil.copytree(ROOT / "companion", source / "companion", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp / "dist"), str(source)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    wheel = next((tmp / "dist").glob("crypt_companion-*.whl"))
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    subprocess.run(
        [python, "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    (Path(site) / "test-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return venv


def test_every_file_of_the_package_is_in_the_wheel(installed):
    python = installed / "bin" / "python"
    where = subprocess.run(
        [python, "-c", "import companion, os; print(os.path.dirname(companion.__file__))"],
        check=True,
        capture_output=True,
        text=True,
        cwd=installed,
    ).stdout.strip()
    assert not where.startswith(str(ROOT)), "the test must run the installed copy, not the source tree"
    tracked = subprocess.run(
        ["git", "ls-files", "companion"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.split()
    missing = [f for f in tracked if not (Path(where) / Path(f).relative_to("companion")).is_file()]
    assert missing == []


def test_the_installed_app_serves_the_demo_stage(installed, tmp_path):
    port = free_port()
    (tmp_path / "c.toml").write_text(f'[server]\nhost = "127.0.0.1"\nport = {port}\n')
    env = {
        **os.environ,
        "XDG_DATA_HOME": str(tmp_path),
        "COMPANION_MODELS": str(tmp_path / "models"),
        # gpiozero's own switches for a machine without pins (PWM for the RGB status LED)
        "GPIOZERO_PIN_FACTORY": "mock",
        "GPIOZERO_MOCK_PIN_CLASS": "mockpwmpin",
    }
    proc = subprocess.Popen(
        [installed / "bin" / "companion", "--config", str(tmp_path / "c.toml"), "serve"],
        env=env,
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        wait_until_up(f"http://127.0.0.1:{port}/api/state", proc)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tomb/demo-stage", timeout=10) as answer:
            assert answer.status == 200 and b'"monsters"' in answer.read()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as answer:
            assert answer.status == 200
    finally:
        proc.kill()
        proc.wait()
