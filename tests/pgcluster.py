"""A throw-away PostgreSQL cluster for the tests: `initdb` into a temporary folder, the server on
a free loopback port with its socket in that folder, one fresh database per test, and the whole
folder removed when the test run ends.

The tests' cluster (fsync off: nothing of it needs to survive a crash) lives in a memory-backed
folder (/dev/shm) where such a file system has room for it: a run of the shared-games tests
makes a hundred databases, some 20,000 files and 700 MB, and removing them from a disk busy with
other work held the run's last test for 10 to 50 seconds. It also keeps little of its
write-ahead log, so the folder stays small either way.

The server binaries come from $BOARDLAB_PG_BIN, else from `pg_ctl` on PATH, else from Debian's
/usr/lib/postgresql/<version>/bin. Without them the PostgreSQL tests skip and say why, unless
$BOARDLAB_REQUIRE_POSTGRES is set (CI sets it): then they fail. PostgreSQL refuses to run as
root, so under root the cluster runs as the `postgres` user (Debian's package makes it).
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

NO_SERVER = "no PostgreSQL server binaries (initdb, pg_ctl): apt install postgresql"
MEMORY_FOLDER = Path("/dev/shm")
MEMORY_ROOM = 4 * 2**30  # free bytes it must have to hold a cluster (or two, one per worker)


def server_bin() -> Path | None:
    """The folder of initdb and pg_ctl, or None."""
    if os.environ.get("BOARDLAB_PG_BIN"):
        return Path(os.environ["BOARDLAB_PG_BIN"])
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb"):
        return Path(found).parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), reverse=True)
    return Path(versions[0]).parent if versions else None


def scratch_folder() -> str | None:
    """Where the cluster's folder goes: the memory-backed file system when it is there with
    room to spare, else None (the default temporary folder)."""
    try:
        fs = os.statvfs(MEMORY_FOLDER)
    except OSError:
        return None
    return str(MEMORY_FOLDER) if fs.f_bavail * fs.f_frsize >= MEMORY_ROOM else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cluster:
    """One running cluster; `database()` makes a fresh database and answers its URL. Tests
    run it without fsync (nothing needs to survive a power cut); a benchmark asks for it."""

    def __init__(self, bindir: Path, fsync: bool = False) -> None:
        self.bindir = bindir
        # a cluster that syncs is measured on the disk; the tests' own need not touch it
        where = None if fsync else scratch_folder()
        self.folder = Path(tempfile.mkdtemp(prefix="boardlab-pg-", dir=where))
        self.data = self.folder / "data"
        self.port = _free_port()
        self._names = itertools.count()
        self._as: list[str] = []
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(self.folder, user.pw_uid, user.pw_gid)
            self._as = ["runuser", "-u", "postgres", "--"]
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            "boardlab",
            "--auth=trust",
            "--no-sync",
            "-E",
            "UTF8",
        )
        options = (
            f"-c listen_addresses=127.0.0.1 -c port={self.port} "
            f"-c unix_socket_directories={self.folder} -c fsync={'on' if fsync else 'off'} "
            "-c max_connections=200"
        )
        if not fsync:
            options += " -c max_wal_size=64MB -c min_wal_size=32MB"
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-w", "-l",
                  str(self.folder / "log"), "start")  # fmt: skip

    def _run(self, tool: str, *args: str) -> None:
        subprocess.run(
            [*self._as, str(self.bindir / tool), *args],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )

    @property
    def base_url(self) -> str:
        return f"postgresql://boardlab@127.0.0.1:{self.port}"

    def database(self) -> str:
        """A new empty database; its URL."""
        import psycopg

        name = f"t{os.getpid()}_{next(self._names)}"
        with psycopg.connect(f"{self.base_url}/postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return f"{self.base_url}/{name}"

    def stop(self) -> None:
        """Stop the server and remove its folder."""
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
