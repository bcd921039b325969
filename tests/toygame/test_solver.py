"""The toy game declares a solver adapter and the same tier solver solves it: every position
agrees with plain minimax (value and remoteness), through the store and through the CLI."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from boardlab.cli.main import main
from boardlab.core.outcome import Value
from boardlab.core.registry import register, unregister
from boardlab.solver.store import TableStore
from tests.toygame import GAME, NimPosition, rules_for


@pytest.fixture
def nim() -> Iterator[None]:
    register(GAME)
    try:
        yield
    finally:
        unregister(GAME.name)


@cache
def minimax(heaps: tuple[int, ...], misere: bool) -> tuple[Value, int]:
    """Value for the side to move and plies to the end: fastest win, slowest loss."""
    if not any(heaps):
        return (Value.WIN if misere else Value.LOSS), 0
    children = []
    for h, n in enumerate(heaps):
        for k in range(1, n + 1):
            child = list(heaps)
            child[h] -= k
            children.append(minimax(tuple(child), misere))
    wins = [r for v, r in children if v is Value.LOSS]
    if wins:
        return Value.WIN, 1 + min(wins)
    return Value.LOSS, 1 + max(r for _, r in children)


@pytest.mark.parametrize("variant", ["normal", "misere"])
def test_every_position_agrees_with_minimax(nim: None, tmp_path: Path, variant: str) -> None:
    rules = rules_for(variant, 3)
    store = TableStore(tmp_path)
    assert store.solvable(rules) and not store.solvable(rules_for(variant, 5))
    table = store.build(rules)
    seen = 0
    for heaps in itertools.product(range(4), range(5), range(6)):
        for side in (0, 1):
            got = table.probe(NimPosition(heaps, side))
            assert got == minimax(heaps, rules.misere), (heaps, side)
            seen += 1
    assert seen == 240
    assert table.header["positions"] == 240 and table.header["draw"] == 0


def test_the_cli_solves_it(nim: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["solve", "--game", "nim", "--size", "4", "--tables", str(tmp_path)]
    assert main(args) == 0
    out = capsys.readouterr().out
    win = sum(
        minimax(h, False)[0] is Value.WIN
        for h in itertools.product(range(4), range(5), range(6), range(7))
    )
    assert f"{2 * 840:,} positions: {2 * win:,} win, {2 * (840 - win):,} loss" in out


def test_verify_checks_it_through_its_adapter_moves(
    nim: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A game that declares no checker of its own is verified through its adapter's moves,
    and the report says the check is not independent."""
    import json

    from boardlab.solver.folder import pack_path
    from boardlab.solver.plan import make_plan
    from boardlab.solver.tierfile import PackFile, write_pack

    args = ["--game", "nim", "--size", "3", "--tables", str(tmp_path)]
    assert main(["solve", *args]) == 0
    capsys.readouterr()
    assert main(["verify", *args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert not data["independent"] and data["failures"] == 0 and data["complete"]
    store = TableStore(tmp_path)
    rules = rules_for("normal", 3)
    table = store.open(rules)
    tier, index = table.game.locate(NimPosition((1, 1, 0), 0))  # a loss in 2
    name = make_plan(table.game).pack_of[tier]
    store.forget()
    pf = PackFile(pack_path(table.path, name), "x")
    tiers = []
    for t in sorted(pf.tiers):
        codes = pf.tier_codes(t)
        if t == tier:
            assert codes[index] == 3 + 2 * 2
            codes[index] = 3 + 2 * 4
        tiers.append((t, codes))
    header = {k: pf.header[k] for k in ("ruleset", "pack", "level")}
    pf.close()
    write_pack(pack_path(table.path, name), tiers, header)
    assert main(["verify", *args, "--json", "--sample", "0"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert any(x.startswith("remoteness off by 2:") for x in data["findings"])
