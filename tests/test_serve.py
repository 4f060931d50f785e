"""`companion serve` listens where the config says, and nowhere else."""

import os
import socket
import subprocess
import sys

from .servers import free_port, start_demo_server, wait_until_up


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


def test_an_oversized_body_is_refused_before_it_is_read(tmp_path):
    port = free_port()
    proc = start_demo_server(port, tmp_path)
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            # 300 MB announced, none sent: the answer comes without the server waiting for (or spooling) it
            s.sendall(
                b"POST /api/command HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                b"Content-Length: 300000000\r\n\r\n"
            )
            assert s.recv(200).startswith(b"HTTP/1.1 413")
    finally:
        proc.kill()
        proc.wait()


def test_a_port_out_of_range_is_one_line(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "serve", "--demo", "--port", "99999"],
        env={**os.environ, "XDG_DATA_HOME": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and done.stderr.strip().splitlines() == [
        "companion: port 99999: a port is a number from 1 to 65535"
    ]


def test_the_served_page_is_told_its_live_port_and_the_stream_answers_there(tmp_path):
    import json
    import urllib.request

    port = free_port()
    proc = start_demo_server(port, tmp_path)
    try:
        state = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=10).read())
        live = state["live_port"]
        assert isinstance(live, int) and live != port
        with socket.create_connection(("127.0.0.1", live), timeout=10) as s:
            s.sendall(b"GET /events HTTP/1.1\r\nHost: localhost\r\n\r\n")
            received = b""
            while b"data: " not in received:
                received += s.recv(65536)
        assert received.startswith(b"HTTP/1.1 200") and b'"game"' in received
    finally:
        proc.terminate()
        proc.wait(10)
