"""A solve forgets the codes of tiers that nothing left to solve reads: the memory is the
live set's, not the whole table's, and no child tier is ever read back from its file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from boardlab.games.dodgem.rules import rules_for
from boardlab.games.dodgem.tiers import DodgemTiers
from boardlab.solver import childcache
from boardlab.solver.childcache import ChildCache
from boardlab.solver.engine import solve_game
from boardlab.solver.plan import last_reads, make_plan
from boardlab.solver.tierfile import PackFile


@pytest.mark.parametrize("variant", ["classic", "piecepack"])
def test_each_tier_is_forgotten_after_the_last_level_that_reads_it(variant: str) -> None:
    game = DodgemTiers(rules_for(variant, 4))
    plan = make_plan(game)
    level = {t: p.level for p in plan.packs for t in p.tiers}
    forgotten = {t: lv for lv, tiers in enumerate(last_reads(game, plan)) for t in tiers}
    assert sorted(forgotten) == sorted(level)  # every tier, once
    readers: dict[int, list[int]] = {t: [] for t in level}
    for t, lv in level.items():
        for c in game.child_tiers(t):
            readers[c].append(lv)
    for t, lv in forgotten.items():
        assert lv == max([level[t], *readers[t]])


def test_forget_drops_the_tiers_and_their_bytes(tmp_path: Path) -> None:
    cache = ChildCache(1 << 20)
    for t in range(4):
        cache.put(tmp_path, t, np.zeros(100 * (t + 1), np.uint16))
    cache.forget(tmp_path, [1, 3, 7])  # 7 was never there
    assert cache.used == 2 * (100 + 300)
    assert [k[1] for k in cache._items] == [0, 2]


@pytest.mark.parametrize("workers", [1, 2])
def test_a_solve_holds_the_live_set_and_reads_no_child_back_from_its_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int
) -> None:
    game = DodgemTiers(rules_for("classic", 4))
    plan = make_plan(game)
    reads: list[int] = []
    most = [0]
    tier_codes = PackFile.tier_codes
    store = ChildCache._store

    def counted_read(self: PackFile, tier: int) -> Any:
        reads.append(tier)
        return tier_codes(self, tier)

    def noted_store(self: ChildCache, key: tuple[str, int], arr: Any) -> None:
        store(self, key, arr)
        most[0] = max(most[0], self.used)

    monkeypatch.setattr(PackFile, "tier_codes", counted_read)
    monkeypatch.setattr(ChildCache, "_store", noted_store)
    solve_game(game, tmp_path / "t", workers=workers)
    assert reads == []  # every child came from the cache
    level = {t: p.level for p in plan.packs for t in p.tiers}
    live = 0  # the most bytes of codes that a level and the levels after it still read
    read_last = last_reads(game, plan)
    for lv in range(len(plan.levels)):
        gone = {t for tiers in read_last[:lv] for t in tiers}
        live = max(
            live, sum(2 * game.tier_size(t) for t in level if level[t] <= lv and t not in gone)
        )
    everything = 2 * plan.positions
    assert most[0] <= live < everything
    assert childcache._CACHE == {}  # released when the solve ended
