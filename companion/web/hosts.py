"""Answer only requests addressed to the Pi: a web page elsewhere cannot rename itself to reach it (DNS rebinding).

A phone reaches the Pi by an address (192.168.1.20), by its name on the network (crypt.local) or by a
name the table adds under [server] hosts; any other Host header is refused.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable


def names_of_this_machine(extra: Iterable[str] = ()) -> frozenset[str]:
    """The host names a request may be addressed to, lower case: localhost, this machine's names, ``extra``."""
    own = socket.gethostname().lower()
    short = own.split(".")[0]
    return frozenset({"localhost", own, short, f"{short}.local", *(str(name).lower().rstrip(".") for name in extra)})


def host_name(header: str) -> str:
    """The name in a Host header, without its port: 'crypt.local:8000' -> 'crypt.local', '[::1]:80' -> '::1'."""
    header = header.strip()
    if header.startswith("["):
        return header[1 : header.find("]")] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def addressed_here(header: str, names: frozenset[str]) -> bool:
    """Whether a request's Host header names this machine: any IP address literal, or one of ``names``."""
    name = host_name(header).lower().rstrip(".")
    try:
        ipaddress.ip_address(name)  # an address is not a name a stranger's DNS can point elsewhere
        return True
    except ValueError:
        return name in names
