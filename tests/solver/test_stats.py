"""The reachability walk with its marks in a folder: the same counts as in memory, resumed
after a stop at any point, and a damaged marks file refused with a one-line error."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.core.errors import BoardLabError
from boardlab.games.dodgem.rules import rules_for
from boardlab.solver.api import Tablebase, build_table, open_table
from boardlab.solver.stats import STATE, harvest, reachable_counts


class Stop(Exception):
    pass


@pytest.fixture(scope="module", params=["classic", "piecepack"])
def table(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Tablebase:
    rules = rules_for(request.param, 4)
    folder = tmp_path_factory.mktemp(request.param)
    build_table(rules, folder, 1)
    return open_table(rules, folder)


@pytest.mark.parametrize("budget", [1, 1 << 30])
def test_marks_in_a_folder_give_the_same_counts(
    table: Tablebase, tmp_path: Path, budget: int
) -> None:
    start = table.rules.start()
    in_memory = reachable_counts(table, start)
    seen: list[tuple[int, int, int]] = []
    on_disk = reachable_counts(
        table,
        start,
        folder=tmp_path / "reach",
        on_progress=lambda lv, d, n, p, a: seen.append((lv, p, a)),
        budget=budget,  # 1: only the last tier touched stays in memory
        checkpoint=0,  # saved at every level's end
    )
    assert np.array_equal(in_memory, on_disk)
    assert not (tmp_path / "reach").exists()  # removed once done
    # progress reaches every position of the full game, level by level downwards
    assert (
        seen[-1][1]
        == seen[-1][2]
        == sum(table.game.full_game().tier_size(t) for t in table.game.full_game().tiers())
    )
    assert [lv for lv, _, _ in seen] == sorted((lv for lv, _, _ in seen), reverse=True)


@pytest.mark.parametrize(("stop_after", "checkpoint"), [(1, 0), (7, 0), (40, 0), (40, 3600)])
def test_a_stopped_walk_resumes_from_its_last_saved_level(
    table: Tablebase, tmp_path: Path, stop_after: int, checkpoint: float
) -> None:
    start = table.rules.start()
    expected = reachable_counts(table, start)
    folder = tmp_path / "reach"
    calls: list[int] = []

    def stop(level: int, done: int, tiers: int, positions: int, total: int) -> None:
        calls.append(level)
        if len(calls) == stop_after:
            raise Stop

    with pytest.raises(Stop):
        reachable_counts(
            table,
            start,
            folder=folder,
            on_progress=stop,
            threads=2,
            budget=4096,  # marks written out and read back during the walk
            checkpoint=checkpoint,  # 0: saved at every level's end; 3600: not before the stop
        )
    state = json.loads((folder / STATE).read_text())
    assert state["ruleset"] == table.game.ruleset_id
    finished = [lv for lv in calls if lv > calls[-1]]  # levels walked before the stop
    if checkpoint or not finished:
        assert state["level"] > max(calls)  # nothing saved: it starts again from the top
    else:
        assert state["level"] == min(finished)  # the level being walked was not saved
    resumed: list[int] = []
    again = reachable_counts(
        table, start, folder=folder, on_progress=lambda lv, *_: resumed.append(lv)
    )
    assert np.array_equal(again, expected)
    assert resumed and max(resumed) < state["level"]  # the saved levels were not walked again


def test_a_damaged_marks_file_is_refused(table: Tablebase, tmp_path: Path) -> None:
    start = table.rules.start()
    folder = tmp_path / "reach"
    calls: list[int] = []

    def stop(level: int, *_: int) -> None:
        calls.append(level)
        if len(calls) == 3:
            raise Stop

    with pytest.raises(Stop):
        reachable_counts(table, start, folder=folder, on_progress=stop, checkpoint=0)
    marks = sorted(folder.glob("*.bits"))
    assert marks
    for path in marks:
        path.write_bytes(b"not compressed marks")
    with pytest.raises(BoardLabError) as err:
        reachable_counts(table, start, folder=folder)
    message = str(err.value)
    assert "\n" not in message and "damaged reachability marks" in message
    assert f"remove {folder}" in message


def test_the_state_of_another_walk_is_not_trusted(table: Tablebase, tmp_path: Path) -> None:
    start = table.rules.start()
    folder = tmp_path / "reach"
    folder.mkdir()
    stale = {
        "version": 1,
        "ruleset": "another",
        "start": str(start),
        "level": 0,
        "counts": [[2, 5]],
    }
    (folder / STATE).write_text(json.dumps(stale))
    (folder / "0.bits").write_bytes(b"left over")
    assert np.array_equal(
        reachable_counts(table, start, folder=folder), reachable_counts(table, start)
    )


@settings(deadline=None)  # the first call compiles
@given(st.lists(st.booleans(), max_size=200), st.integers(0, 3))
def test_harvest_packs_like_numpy_and_clears(flags: list[bool], skip: int) -> None:
    n = -(-len(flags) // 8) * 8
    buf = np.zeros(n + 8 * (skip + 1), np.uint8)  # marks after `skip` empty words, then one more
    buf[8 * skip : 8 * skip + len(flags)] = flags
    bits = np.empty(n // 8, np.uint8)
    words = buf.view(np.uint64)
    assert harvest(words, skip, skip + n // 8, bits) == any(flags)
    assert np.array_equal(bits, np.packbits(np.array(flags, np.uint8), bitorder="little"))
    assert not buf.any()
