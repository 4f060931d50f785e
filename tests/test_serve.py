"""`companion serve` listens where the config says, and nowhere else."""

import os
import socket
import subprocess
import sys

from .servers import free_port, wait_until_up


def test_the_server_binds_where_the_config_says(tmp_path):
    port = free_port()
    (tmp_path / "c.toml").write_text(f'[server]\nhost = "127.0.0.2"\nport = {port}\n')
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "--config", str(tmp_path / "c.toml"), "serve", "--demo"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_until_up(f"http://127.0.0.2:{port}/api/state", proc)
        with socket.socket() as s:
            assert s.connect_ex(("127.0.0.1", port)) != 0, "it must not listen on other addresses"
    finally:
        proc.kill()
        proc.wait()
