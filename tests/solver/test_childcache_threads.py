"""Threads read child tiers through one cache side by side: each gets the stored codes, a
tier two threads want at once is read from its file once, a pack file pushed out of the open
ones while a thread reads it stays open for that thread, and a failed read fails for every
thread that waited for it."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from boardlab.core.errors import CorruptTableError
from boardlab.games.dodgem.rules import rules_for
from boardlab.games.dodgem.tiers import DodgemTiers
from boardlab.solver import childcache
from boardlab.solver.childcache import ChildCache
from boardlab.solver.engine import solve_game
from boardlab.solver.folder import pack_path
from boardlab.solver.plan import make_plan
from boardlab.solver.tierfile import PackFile


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[tuple[int, str]]]:
    game = DodgemTiers(rules_for("classic", 4))
    folder = tmp_path_factory.mktemp("tables") / game.ruleset_id
    solve_game(game, folder, workers=1)
    plan = make_plan(game)
    return folder, [(t, p.name) for p in plan.packs for t in p.tiers]


def stored(folder: Path, tier: int, pack: str) -> Any:
    pf = PackFile(pack_path(folder, pack), "rebuild")
    try:
        return pf.tier_codes(tier)
    finally:
        pf.close()


def test_threads_reading_many_packs_through_few_open_files_get_the_stored_codes(
    table: tuple[Path, list[tuple[int, str]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, tiers = table
    monkeypatch.setattr(childcache, "OPEN_PACKS", 1)  # every new pack closes another
    cache = ChildCache(0)  # nothing stays: every read goes to a file
    got: dict[int, Any] = {}
    errors: list[BaseException] = []

    def reader(k: int) -> None:
        try:
            for tier, pack in tiers[k::4]:
                got[tier] = cache.get(folder, tier, pack, "rebuild")
        except BaseException as exc:  # handed to the test thread
            errors.append(exc)

    threads = [threading.Thread(target=reader, args=(k,)) for k in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == []
    assert sorted(got) == sorted(t for t, _ in tiers)
    for tier, pack in tiers:
        assert np.array_equal(got[tier], stored(folder, tier, pack))
    assert cache._users == {} and cache._reading == {}
    cache.close()


def test_two_threads_decompress_two_tiers_side_by_side(
    table: tuple[Path, list[tuple[int, str]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, tiers = table
    (x, x_pack), (y, y_pack) = tiers[-2], tiers[-1]
    y_started = threading.Event()
    overlapped: list[bool] = []
    tier_codes = PackFile.tier_codes

    def read(self: PackFile, t: int) -> Any:
        if t == x:  # the first read lasts until the second has begun (or 10 s went by)
            overlapped.append(y_started.wait(10))
        else:
            y_started.set()
        return tier_codes(self, t)

    monkeypatch.setattr(PackFile, "tier_codes", read)
    cache = ChildCache(1 << 30)
    first = threading.Thread(target=cache.get, args=(folder, x, x_pack, "rebuild"))
    first.start()
    while not cache._reading:
        threading.Event().wait(0.001)
    second = threading.Thread(target=cache.get, args=(folder, y, y_pack, "rebuild"))
    second.start()
    first.join()
    second.join()
    assert overlapped == [True]
    cache.close()


def test_a_tier_two_threads_want_at_once_is_read_once(
    table: tuple[Path, list[tuple[int, str]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, tiers = table
    tier, pack = max(tiers, key=lambda tp: len(stored(folder, *tp)))
    reads: list[int] = []
    second_waits = threading.Event()
    tier_codes = PackFile.tier_codes

    def slow_read(self: PackFile, t: int) -> Any:
        reads.append(t)
        second_waits.wait(10)  # the first reader holds on until the second has asked
        return tier_codes(self, t)

    monkeypatch.setattr(PackFile, "tier_codes", slow_read)
    cache = ChildCache(1 << 30)
    out: list[Any] = [None, None]

    def ask(k: int) -> None:
        out[k] = cache.get(folder, tier, pack, "rebuild")

    first = threading.Thread(target=ask, args=(0,))
    first.start()
    while not cache._reading:  # the first thread is reading
        threading.Event().wait(0.001)
    second = threading.Thread(target=ask, args=(1,))
    second.start()
    while second.is_alive() and not _waiting(second):
        threading.Event().wait(0.001)
    second_waits.set()
    first.join()
    second.join()
    assert reads == [tier]
    assert out[0] is out[1]
    assert np.array_equal(out[0], stored(folder, tier, pack))
    cache.close()


def _waiting(thread: threading.Thread) -> bool:
    """Whether `thread` waits on an Event (the tier another thread reads)."""
    import sys
    import traceback

    frame = sys._current_frames().get(thread.ident or 0)
    return frame is not None and any(f.name == "wait" for f in traceback.extract_stack(frame))


def test_a_read_that_fails_fails_for_the_thread_that_waited_for_it_too(
    table: tuple[Path, list[tuple[int, str]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, tiers = table
    tier, pack = tiers[-1]
    second_waits = threading.Event()
    reads: list[int] = []

    def failing_read(self: PackFile, t: int) -> Any:
        reads.append(t)
        second_waits.wait(10)
        raise CorruptTableError(f"{self.path}: block 0 checksum mismatch; rebuild it")

    monkeypatch.setattr(PackFile, "tier_codes", failing_read)
    cache = ChildCache(1 << 30)
    failed: list[str] = []

    def ask() -> None:
        try:
            cache.get(folder, tier, pack, "rebuild")
        except CorruptTableError as exc:
            failed.append(str(exc))

    first = threading.Thread(target=ask)
    first.start()
    while not cache._reading:
        threading.Event().wait(0.001)
    second = threading.Thread(target=ask)
    second.start()
    while second.is_alive() and not _waiting(second):
        threading.Event().wait(0.001)
    second_waits.set()
    first.join()
    second.join()
    assert reads == [tier, tier]  # the waiting thread read it again and failed in turn
    assert len(failed) == 2 and all("checksum mismatch" in m for m in failed)
    assert cache._reading == {} and cache._users == {}
    cache.close()
