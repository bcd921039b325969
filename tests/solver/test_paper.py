"""The estimate on paper (7×7): Dodgem's tier shape agrees with the solver's adapter on the
boards it runs, and the plan counted from it is the solver's plan."""

from __future__ import annotations

import pytest

from boardlab.cli.main import main
from boardlab.games.dodgem import tiers as dodgem_tiers
from boardlab.games.dodgem.rules import rules_for
from boardlab.games.dodgem.shape import DodgemShape, shape_for
from boardlab.games.dodgem.tiers import DodgemTiers, placements
from boardlab.solver.packsolve import BYTES_PER_POSITION
from boardlab.solver.paper import KERNEL_LIMIT, paper_estimate
from boardlab.solver.plan import make_plan, tier_levels


@pytest.mark.parametrize("variant", ["classic", "piecepack"])
@pytest.mark.parametrize("size", [3, 4, 5])
def test_the_shape_is_the_adapters(variant: str, size: int) -> None:
    rules = rules_for(variant, size)
    shape, game = DodgemShape(rules), DodgemTiers(rules)
    assert shape.tiers() == game.tiers()
    for t in game.tiers():
        assert shape.tier_size(t) == game.tier_size(t)
        assert shape.child_tiers(t) == game.child_tiers(t)
    assert shape.tier_levels() == tier_levels(game)
    assert shape.ruleset_id == game.ruleset_id and shape.max_moves == game.kernel.max_moves


@pytest.mark.parametrize("size", [4, 5])
def test_board_bytes_are_what_the_adapter_holds(size: int) -> None:
    pl = placements(size, "classic")

    def nbytes(value: object) -> int:
        return sum(a.nbytes for a in (value if isinstance(value, tuple) else (value,)))

    names = ("key_of", "masks", "by_mask", "dest", "child", "kind", "un_src", "un_parent")
    held = sum(nbytes(getattr(pl, name)) for name in names)
    game = DodgemTiers(rules_for("classic", size))
    blob = game.tier_context(game.tiers()[0])[1].nbytes  # the compiled functions' copy
    predicted = DodgemShape(rules_for("classic", size)).board_bytes()
    assert abs(predicted - (held + blob)) <= 0.05 * (held + blob)


def test_7x7_counts() -> None:
    """Counted two ways: the shape's tiers, and each side's placements (up to six cars on
    49 squares): every pair of placements with either side to move, half under the colour
    swap (its own image when both sides' keys are equal)."""
    from math import comb

    shape = DodgemShape(rules_for("classic", 7))
    per_side = sum(comb(49, k) for k in range(7))
    assert shape.placements == per_side == 16_122_226
    diagonal = sum(2 * s * s for s in shape.key_size)
    assert sum(shape.tier_size(t) for t in shape.tiers()) == (2 * per_side**2 + diagonal) // 2
    assert max(shape.tier_size(t) for t in shape.tiers()) == 2 * 7**12  # one car a line
    assert len(shape.keys) == comb(13, 6) and shape_for(object()) is None


def test_the_paper_plan_is_the_solvers_plan() -> None:
    rules = rules_for("classic", 5)
    game = DodgemTiers(rules)
    est = paper_estimate(DodgemShape(rules), DodgemTiers(rules_for("classic", 4)))
    assert est.sampled.endswith("indices") and est.seconds_per_position > 0
    plan = make_plan(game)
    assert (est.tiers, est.levels, est.packs, est.positions) == (
        len(plan.pack_of),
        len(plan.levels),
        len(plan.packs),
        plan.positions,
    )
    assert est.largest == max(p.largest for p in plan.packs) and est.too_big == 0
    assert est.tier_bytes >= BYTES_PER_POSITION * est.largest
    assert est.seconds_on(1000) <= est.seconds_on(2) <= est.one_core_seconds
    assert est.seconds_on(1000) >= sum(est.level_floor_seconds)
    assert est.scale == 13 / 10  # 13 moves at most on 5×5, 10 on 4×4
    assert KERNEL_LIMIT == 1 << 29


def test_cli_estimates_a_board_the_solver_does_not_run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """As `--size 7` does, here with the solver capped at 4×4 so that 5×5 goes on paper."""
    real = dodgem_tiers.tiers_for
    monkeypatch.setattr(
        dodgem_tiers, "tiers_for", lambda r: real(r) if getattr(r, "size", 0) <= 4 else None
    )
    assert main(["solve", "--size", "5", "--estimate", "--cores", "8"]) == 0
    out = capsys.readouterr().out
    plan = make_plan(DodgemTiers(rules_for("classic", 5)))
    assert f"{plan.positions:,} positions in {len(plan.pack_of):,} tiers" in out
    assert "time on 1,000 cores" in out and "time on 8 cores" in out
    assert "dodgem-4-classic-wins-normal" in out
    assert main(["solve", "--size", "5", "--estimate", "--cores", "0"]) == 2
