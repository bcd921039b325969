"""`boardlab solve`'s local Dask cluster listens on loopback only (its dashboard included),
and a malformed --scheduler address is refused in one line."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from boardlab.core.errors import UsageError
from boardlab.solver.cluster import connect, dashboard_link, disconnect, scheduler_address

LOOPBACK = {"0100007F", "00000000000000000000000001000000"}  # 127.0.0.1 and ::1 in /proc


def _listening_sockets() -> dict[str, str]:
    """The sockets this process listens on: inode to local address (hex, as /proc writes it).
    By inode, so that a listener another test left open on loopback does not hide the
    cluster's."""
    mine = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            mine.add(target[8:-1])
    found = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in mine:  # LISTEN
                found[fields[9]] = fields[1].split(":")[0]
    return found


@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="reads Linux's /proc")
def test_the_local_cluster_listens_on_loopback_only() -> None:
    before = _listening_sockets()
    client, cluster, _ = connect(2, None)
    try:
        opened = [a for inode, a in _listening_sockets().items() if inode not in before]
        assert opened, "the cluster's dashboard should listen somewhere"
        assert all(a in LOOPBACK for a in opened), opened
        link = dashboard_link(client, cluster)
        assert link is not None and link.startswith("http://127.0.0.1:")
    finally:
        disconnect(client, cluster)


@pytest.mark.parametrize("bad", ["garbage", "tcp://host", "http://h:1", "tcp://h:99999", "h:p"])
def test_malformed_scheduler_addresses(bad: str) -> None:
    with pytest.raises(UsageError, match="tcp://HOST:PORT"):
        scheduler_address(bad)


def test_scheduler_addresses_are_read() -> None:
    assert scheduler_address("127.0.0.1:8786") == "tcp://127.0.0.1:8786"
    assert scheduler_address("tls://[::1]:8786") == "tls://[::1]:8786"
