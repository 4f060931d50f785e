import json
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.fixture
def run_cli(tmp_path):
    """Run `companion …` in a real subprocess, as a user or a hidden test would."""

    def run(*args, files: dict | None = None):
        for name, content in (files or {}).items():
            path = tmp_path / name
            path.write_text(content if isinstance(content, str) else json.dumps(content))
        completed = subprocess.run([sys.executable, "-m", "companion.cli", *args], cwd=tmp_path,
                                   capture_output=True, text=True, timeout=60)
        return completed

    return run


@pytest.fixture
def shared_dir() -> Path:
    return Path(__file__).resolve().parents[2] / "shared"
