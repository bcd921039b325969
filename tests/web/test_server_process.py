"""`boardlab serve` as a real process (issue items 4, 5, 7 and 10): tables damaged on disk or
under the running server, and the server killed outright.

These tests use only what any table format has: the table store's path for a ruleset (a file,
or a folder of files) and the HTTP API. The server runs in a subprocess, so a SIGBUS or any
other crash shows as a dead process instead of taking the tests down with it.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from boardlab.core.registry import make_rules
from boardlab.solver.store import TableStore
from boardlab.web import create_app

# one ruleset per kind of damage, so that one server sees every kind at once
RULESETS = [
    (variant, size) for size in (3, 4) for variant in ("classic", "blocked-loses", "misere")
]
CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, PR_CAPBSET_DROP = 1, 2, 24


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _without_file_override() -> None:
    """In the child before exec: give up root's right to read any file, so that a file
    without read permission is unreadable to the server even when the tests run as root."""
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH):
        if libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


@contextmanager
def server(tables: Path, log: Path, drop_root: bool = False) -> Iterator[tuple[Any, httpx.Client]]:
    """`boardlab serve` on a free loopback port in its own session; yields the process and
    a client (a local one: it may start builds). Stopped, with all it started, at the end."""
    port = _free_port()
    cmd = [sys.executable, "-m", "boardlab", "serve", "--port", str(port), "--tables", str(tables)]
    with log.open("wb") as out:
        proc = subprocess.Popen(
            cmd,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=_without_file_override if drop_root and os.geteuid() == 0 else None,
        )
    client = httpx.Client(base_url=f"http://localhost:{port}", timeout=120)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if client.get("/api/health").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert proc.poll() is None, log.read_text()
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.2)
        yield proc, client
    finally:
        client.close()
        with_children = descendants(proc.pid) | {proc.pid}
        for pid in with_children:
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        proc.wait(timeout=30)


def descendants(pid: int) -> set[int]:
    """Every process started (directly or not) by `pid`, from /proc."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as fh:
                    ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def alive(pid: int) -> bool:
    """True while `pid` runs (a zombie waiting for its parent counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def table_files(tables: Path, variant: str, size: int) -> list[Path]:
    """The files of a ruleset's table, whatever the layout: the table's path when it is a
    file, else the data files under its folder (every file but JSON descriptions)."""
    path = TableStore(tables).path(make_rules("dodgem", variant, size))
    if path.is_file():
        return [path]
    files = [f for f in sorted(path.rglob("*")) if f.is_file() and f.suffix != ".json"]
    assert files, f"no table files under {path}"
    return files


Spec = dict[str, Any]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, tuple[Spec, Any]]]:
    """A folder with the complete tables of RULESETS and, for each, a game of two plies and
    its analysis from the intact table."""
    folder = tmp_path_factory.mktemp("built") / "tables"
    store = TableStore(folder)
    games: dict[str, tuple[Spec, Any]] = {}
    app = create_app(store)
    with TestClient(app, base_url="http://localhost", client=("127.0.0.1", 5000)) as c:
        for variant, size in RULESETS:
            store.build(make_rules("dodgem", variant, size))
            game: Spec = {"variant": variant, "size": size, "moves": []}
            for _ in range(2):
                legal = c.post("/api/state", json=game).json()["legal_moves"]
                game["moves"] = [*game["moves"], legal[-1]]
            reference = c.post("/api/analysis", json=game).json()
            assert reference["available"] is True and reference["moves"], reference
            games[f"{variant}-{size}"] = (game, reference)
    return folder, games


def _truncate(f: Path) -> None:
    os.truncate(f, f.stat().st_size // 2)


def _empty(f: Path) -> None:
    os.truncate(f, 0)


def _folder(f: Path) -> None:
    f.unlink()
    f.mkdir()


def _device(f: Path) -> None:
    f.unlink()
    f.symlink_to("/dev/zero")


def _no_permission(f: Path) -> None:
    f.chmod(0)


def _garbage(f: Path) -> None:
    size = f.stat().st_size
    f.write_bytes(bytes((i * 131 + 7) % 256 for i in range(size)))


def _zeroed_start(f: Path) -> None:
    with f.open("r+b") as fh:
        fh.write(b"\x00" * min(64, f.stat().st_size))


DAMAGE: dict[str, Callable[[Path], None]] = {
    "truncated": _truncate,
    "a folder": _folder,
    "/dev/zero": _device,
    "no permission": _no_permission,
    "garbage of the same size": _garbage,
    "header zeroed": _zeroed_start,
}


def assert_clean(r: httpx.Response, tables: Path) -> None:
    """Never a 500; an error is one line of {error, kind}; no server path in any answer."""
    assert r.status_code < 500 or r.status_code == 503, r.text
    if r.status_code >= 400:
        body = r.json()
        assert set(body) == {"error", "kind"} and "\n" not in body["error"], body
    assert str(tables) not in r.text and str(tables.parent) not in r.text


def assert_damaged_or_right(r: httpx.Response, reference: dict[str, Any], tables: Path) -> None:
    """An analysis answer is either the table's true values or a clean "table damaged"."""
    assert_clean(r, tables)
    body = r.json()
    if r.status_code == 503:
        assert body["kind"] == "CorruptTableError", body
        assert body["error"].startswith("table damaged") and "rebuild" in body["error"], body
    elif body["available"]:
        assert body == reference  # read before the damage, or from an undamaged part
    else:
        assert body["table"] == "damaged", body
        assert "table damaged" in body["reason"] and "rebuild" in body["reason"], body


def test_damaged_tables_never_crash_the_server_or_answer_wrongly(
    built: tuple[Path, dict[str, tuple[Spec, Any]]], tmp_path: Path
) -> None:
    """Each ruleset's table damaged in its own way (every data file of it), then asked for
    by the table status, an analysis and a level-4 move (which runs in a worker process).
    The server runs without root's right to read any file, so "no permission" holds."""
    source, games = built
    tables = tmp_path / "tables"
    shutil.copytree(source, tables, symlinks=True)
    kinds = dict(zip(DAMAGE, RULESETS, strict=True))
    for damage, (variant, size) in kinds.items():
        for f in table_files(tables, variant, size):
            DAMAGE[damage](f)
    with server(tables, tmp_path / "server.log", drop_root=True) as (proc, c):
        for damage, (variant, size) in kinds.items():
            game, reference = games[f"{variant}-{size}"]
            status = c.get("/api/tables", params={"variant": variant, "size": size})
            assert_clean(status, tables)
            assert status.json()["state"] in ("damaged", "ready"), (damage, status.text)
            analysis = c.post("/api/analysis", json=game)
            assert_damaged_or_right(analysis, reference, tables)
            assert not analysis.json().get("available"), (damage, "every data file is damaged")
            move = c.post("/api/move", json={**game, "level": "4"})
            assert_clean(move, tables)
            if move.status_code == 200:  # played by search, and it says why
                body = move.json()
                assert body["table"] == "damaged" and "table damaged" in body["note"], body
            else:
                assert move.status_code == 503 and move.json()["kind"] == "CorruptTableError"
        assert c.get("/api/health").status_code == 200
        assert proc.poll() is None
    log = (tmp_path / "server.log").read_text()
    assert "Traceback" not in log and "Fatal Python error" not in log, log


def test_a_table_truncated_under_the_running_server(
    built: tuple[Path, dict[str, tuple[Spec, Any]]], tmp_path: Path
) -> None:
    """The server has a 4×4 table open and has read from it; then every data file of it
    loses its second half. Reads of other positions get "table damaged" (values read
    before may still be given), never SIGBUS; an emptied file the same."""
    source, games = built
    tables = tmp_path / "tables"
    shutil.copytree(source, tables)
    game, reference = games["classic-4"]
    with server(tables, tmp_path / "server.log") as (proc, c):
        first = c.post("/api/analysis", json={"size": 4, "moves": game["moves"][:1]})
        assert first.status_code == 200 and first.json()["available"] is True
        for f in table_files(tables, "classic", 4):
            _truncate(f)
        answers = [c.post("/api/analysis", json=game) for _ in range(2)]
        answers.append(c.post("/api/analysis", json={"size": 4, "moves": ["a2-a1"]}))
        move = c.post("/api/move", json={**game, "level": "4"})
        for f in table_files(tables, "classic", 4):
            _empty(f)
        answers.append(c.post("/api/analysis", json=game))
        assert proc.poll() is None, (tmp_path / "server.log").read_text()  # -7 is SIGBUS
        for r in answers:
            assert_damaged_or_right(r, reference, tables)
        assert_clean(move, tables)
        assert any(r.status_code == 503 or not r.json().get("available") for r in answers)
        assert c.get("/api/health").status_code == 200


@pytest.mark.slow
@pytest.mark.parametrize("how", ["kill -9", "Ctrl-C"])
def test_stopping_the_server_leaves_no_process_behind(tmp_path: Path, how: str) -> None:
    """kill -9 of `boardlab serve`, or Ctrl-C at its terminal (SIGINT to its process group),
    while a table build and the worker processes run: every process it started ends within
    seconds, and a new server can build that table."""
    tables = tmp_path / "tables"
    with server(tables, tmp_path / "server.log") as (proc, c):
        assert c.post("/api/move", json={"size": 5, "level": "3"}).status_code == 200
        r = c.post("/api/tables", json={"size": 5})
        assert r.status_code == 200 and r.json()["state"] == "building", r.text
        time.sleep(1.0)
        started = descendants(proc.pid)
        assert len(started) >= 2, started  # worker processes and the build
        if how == "kill -9":
            proc.send_signal(signal.SIGKILL)
        else:
            os.killpg(proc.pid, signal.SIGINT)  # the server leads its own session's group
        proc.wait(timeout=20)
        deadline = time.monotonic() + 15
        while any(alive(pid) for pid in started) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not [pid for pid in started if alive(pid)]
    if how == "Ctrl-C":
        log = (tmp_path / "server.log").read_text()
        assert "Traceback" not in log, log
    with server(tables, tmp_path / "again.log") as (proc, c):
        r = c.post("/api/tables", json={"size": 5})
        assert r.status_code == 200 and r.json()["state"] == "building", r.text
        r = c.delete("/api/tables", params={"size": 5})
        assert r.status_code == 200 and r.json()["state"] == "failed"
