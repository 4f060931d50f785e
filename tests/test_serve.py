"""`companion serve` listens where the config says, and nowhere else."""

import os
import socket
import subprocess
import sys
import time
import urllib.request

from .test_power_cut import free_port


def test_the_server_binds_where_the_config_says(tmp_path):
    port = free_port()
    (tmp_path / "c.toml").write_text(f'[server]\nhost = "127.0.0.2"\nport = {port}\n')
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "--config", str(tmp_path / "c.toml"), "serve", "--demo"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"http://127.0.0.2:{port}/api/state", timeout=1).read()
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise AssertionError("not listening on 127.0.0.2")
        with socket.socket() as s:
            assert s.connect_ex(("127.0.0.1", port)) != 0, "it must not listen on other addresses"
    finally:
        proc.kill()
        proc.wait()
