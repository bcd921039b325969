"""The tier solver against the old slice solver and a slow reference, and the Dodgem adapter."""

from __future__ import annotations

import random

import numpy as np
import pytest

from boardlab.core.errors import NotationError
from boardlab.core.outcome import Value
from boardlab.core.retrograde_children import NO_CHILD_CODES, child_addresses, side_by_side
from boardlab.core.retrograde_work import PARKED, tally, work_arrays
from boardlab.core.tiers import TierGame
from boardlab.games.dodgem.notation import DodgemPosition
from boardlab.games.dodgem.rules import EXIT, DodgemRules, rules_for
from boardlab.games.dodgem.tiers import (
    DodgemTiers,
    dodgem_solve_tier_plain,
    from_spec,
    placements,
    tiers_for,
)
from boardlab.solver.api import decode
from boardlab.solver.packsolve import solve_in_memory
from boardlab.solver.plan import make_plan
from tests.solver import reference
from tests.solver.legacy.build import solve_in_memory as legacy_solve
from tests.solver.legacy.index import geometry_rules, scheme_for


@pytest.mark.parametrize("size", [3, 4])
@pytest.mark.parametrize("variant", ["classic", "blocked-loses", "misere"])
def test_every_position_agrees_with_the_old_solver(variant: str, size: int) -> None:
    rules = rules_for(variant, size)
    game = DodgemTiers(rules)
    new = solve_in_memory(game)
    old = legacy_solve(rules)
    sch = scheme_for(geometry_rules(rules))
    k = sch.num_keys
    assert len(new) == k * (k + 1) // 2
    for tier, codes in new.items():
        a, b = divmod(tier, k)
        lo = int(sch.slice_offset[a * k + b])
        assert np.array_equal(codes, old[lo : lo + len(codes)]), game.tier_name(tier)


def _check_against_reference(rules: DodgemRules) -> None:
    game = DodgemTiers(rules)
    codes = solve_in_memory(game)
    want = reference.solve(rules)
    for pos, result in want.items():
        tier, index = game.locate(pos)
        assert decode(int(codes[tier][index])) == result, str(pos)


@pytest.mark.parametrize(
    "rules",
    [
        rules_for("piecepack", 3),
        DodgemRules(size=3, geometry="piecepack", blocked="wins"),
        DodgemRules(size=3, geometry="classic", blocked="passes", goal="misere"),
    ],
    ids=str,
)
def test_3x3_matches_the_reference(rules: DodgemRules) -> None:
    _check_against_reference(rules)


@pytest.mark.slow
def test_piecepack_4x4_matches_the_reference() -> None:
    _check_against_reference(rules_for("piecepack", 4))


@pytest.mark.parametrize("variant", ["classic", "piecepack"])
def test_symmetry_changes_nothing(variant: str) -> None:
    rules = rules_for(variant, 4)
    sym, full = DodgemTiers(rules), DodgemTiers(rules, symmetric=False)
    a, b = solve_in_memory(sym), solve_in_memory(full)
    assert len(b) > len(a)
    rng = random.Random(4)
    for tier in rng.sample(sorted(b), 60):
        for index in rng.sample(range(full.tier_size(tier)), min(20, full.tier_size(tier))):
            pos = full.position(tier, index)
            if pos is None:
                continue
            t2, i2 = sym.locate(pos)
            assert b[tier][index] == a[t2][i2], str(pos)


@pytest.mark.parametrize(
    "rules",
    [
        rules_for("classic", 4),
        rules_for("misere", 3),
        rules_for("piecepack", 3),
        rules_for("piecepack", 4),
    ],
    ids=str,
)
def test_unfold_gives_every_tier_of_the_full_game_its_codes(rules: DodgemRules) -> None:
    """The stored tiers unfolded (a transpose, or with Piecepack's mirror a rank per index)
    are the full game's own solution, tier by tier."""
    sym, full = DodgemTiers(rules), DodgemTiers(rules, symmetric=False)
    stored, plain = solve_in_memory(sym), solve_in_memory(full)
    swapped = 0
    for tier, codes in plain.items():
        a, b = divmod(tier, full._keys)
        swapped += a > b
        assert np.array_equal(sym.unfold(tier, stored[sym.canonical_tier(tier)]), codes), tier
    assert swapped > 10


@pytest.mark.parametrize("rules", [rules_for("classic", 4), rules_for("piecepack", 4)], ids=str)
def test_weighted_counts_are_the_full_games_counts(rules: DodgemRules) -> None:
    """Each stored entry weighs the positions it stands for: the weighted counts of the
    stored tiers are the counts of every code over the game without symmetry."""
    sym, full = DodgemTiers(rules), DodgemTiers(rules, symmetric=False)
    stored, plain = solve_in_memory(sym), solve_in_memory(full)
    weighed = np.zeros(65536, np.int64)
    for tier, codes in stored.items():
        sym.weighted_counts(tier, codes, weighed)
    counted = np.zeros(65536, np.int64)
    for codes in plain.values():
        counted += np.bincount(codes, minlength=65536)
    assert np.array_equal(weighed[1:], counted[1:])
    assert weighed[1:].sum() > sum(int(np.count_nonzero(c)) for c in stored.values())


@pytest.mark.parametrize("rules", [rules_for("classic", 4), rules_for("piecepack", 4)], ids=str)
def test_weighted_counts_from_the_kernels_tally_are_those_of_the_codes(rules: DodgemRules) -> None:
    """The counts a solve takes from the kernel's tally are those of reading the codes (with
    the mirror, where entries weigh unlike, the codes are read)."""
    game = DodgemTiers(rules)
    for tier, codes in solve_in_memory(game).items():
        counted = np.bincount(codes, minlength=4).astype(np.int64)
        assert np.array_equal(
            game.weighted_counts(tier, codes, tally=counted), game.weighted_counts(tier, codes)
        ), tier


def test_weighted_counts_of_any_codes_are_the_orbit_times_their_counts() -> None:
    """Codes of every width (above 255 too, as deep remoteness gives), in runs and scattered,
    and lengths that are not a multiple of four: each counted once per position of its orbit."""
    game = DodgemTiers(rules_for("classic", 4))
    rng = np.random.default_rng(3)
    tier = next(t for t in game.tiers() if game.orbit_size(t) == 2)
    for n in (0, 1, 7, 4097):
        codes = rng.choice([0, 1, 2, 3, 255, 256, 4001, 65535], n).astype(np.uint16)
        codes[: n // 2] = codes[0] if n else 0  # a run of one code
        got = game.weighted_counts(tier, codes)
        assert np.array_equal(got, 2 * np.bincount(codes, minlength=65536)), n


@pytest.mark.parametrize(
    ("rules", "symmetric"),
    [
        (rules_for("classic", 4), True),
        (rules_for("classic", 4), False),
        (rules_for("blocked-loses", 4), True),
        (rules_for("misere", 4), True),
        (rules_for("piecepack", 4), False),  # passes, stored without the mirror
        (rules_for("piecepack", 3), True),  # the mirror: row by row too
        (rules_for("piecepack", 4), True),
        (DodgemRules(size=4, geometry="piecepack", blocked="loses", goal="normal"), True),
        (DodgemRules(size=4, geometry="piecepack", blocked="passes", goal="misere"), True),
        (DodgemRules(size=3, geometry="classic", blocked="passes", goal="misere"), True),
    ],
    ids=str,
)
def test_row_pass_agrees_with_the_kernels_own_pass(rules: DodgemRules, symmetric: bool) -> None:
    """The solver's Dodgem entries for the adapter's flavour of tier (a first pass row by
    row; whole, and in the two halves a solve with --timings calls) and the kernel's first
    pass one position at a time give the same codes and remoteness for every tier."""
    game = DodgemTiers(rules, symmetric=symmetric)
    kernel = game.kernel  # the entries of this flavour of tier: mirror or not, passes or not
    assert kernel.solve is not None and kernel.first_pass and kernel.propagate
    plan = make_plan(game)
    fast: dict[int, np.ndarray] = {}
    work = work_arrays(max(game.tier_size(t) for t in plan.pack_of), game.kernel.max_moves)
    for pack in plan.packs:
        for tier in pack.tiers:
            children = [fast[c] for c in game.child_tiers(tier)]
            kids, base = side_by_side(children, np.uint16)  # the reference's copy
            where = child_addresses(children)  # the entry reads them where they lie
            size = game.tier_size(tier)
            ctx = game.tier_context(tier)
            a, b = np.zeros(size, np.uint16), np.zeros(size, np.uint16)
            mm = game.kernel.max_moves
            ra = kernel.solve(ctx, size, mm, NO_CHILD_CODES, where, a, work)
            counted = tally(work, ra).copy()
            assert work[1][PARKED] == -1  # what the row pass parked is gone: no level takes it
            halves = np.zeros(size, np.uint16)  # the two halves, as a solve with --timings
            assert kernel.first_pass(ctx, size, NO_CHILD_CODES, where, halves, work) >= 0
            assert kernel.propagate(ctx, size, halves, work) == ra
            assert np.array_equal(halves, a), game.tier_name(tier)
            rb = dodgem_solve_tier_plain(ctx, size, mm, kids, base, b, work)
            assert ra == rb >= 0, game.tier_name(tier)
            assert np.array_equal(a, b), game.tier_name(tier)
            # the kernel's count of each code, kept as it decided them: no code beyond it
            want = np.bincount(a, minlength=len(counted))
            assert np.array_equal(counted, want), game.tier_name(tier)
            assert np.array_equal(tally(work, rb), want), game.tier_name(tier)
            fast[tier] = a
    assert any(int(c.max()) > 3 for c in fast.values())  # some positions were not terminal


def test_rank_unrank_round_trip() -> None:
    for variant in ("classic", "piecepack"):
        game = DodgemTiers(rules_for(variant, 4))
        rng = random.Random(1)
        for tier in rng.sample(list(game.tiers()), 40):
            for index in rng.sample(range(game.tier_size(tier)), min(10, game.tier_size(tier))):
                pos = game.position(tier, index)
                if pos is not None:
                    assert game.locate(pos) == (tier, index)


def _move_tables_reference(
    rules: DodgemRules, player: int, masks: list[int]
) -> tuple[np.ndarray, ...]:
    """The move tables of `placements`, plainly: every car of every placement, each step."""
    lookup = {m: g for g, m in enumerate(masks)}
    slots = 3 * (rules.size - 1)
    dest = np.full((len(masks), slots), -2, np.int32)
    child = np.full((len(masks), slots), -1, np.int32)
    kind = np.full((len(masks), slots), -1, np.int8)
    into: list[list[tuple[int, int]]] = [[] for _ in masks]
    for g, mask in enumerate(masks):
        j = 0
        for q in range(rules.size**2):
            if not mask >> q & 1:
                continue
            for k, d in enumerate(rules.step_table[player][q]):
                if d != EXIT and mask >> d & 1:
                    continue
                new = mask & ~(1 << q) | (0 if d == EXIT else 1 << d)
                dest[g, j], child[g, j], kind[g, j] = d, lookup[new], int(k == 0)
                if k > 0:
                    into[lookup[new]].append((q, g))
                j += 1
    width = max(1, max(len(i) for i in into))
    un_src = np.full((len(masks), width), -1, np.int32)
    un_parent = np.full((len(masks), width), -1, np.int32)
    for c, items in enumerate(into):
        for j, (q, g) in enumerate(items):
            un_src[c, j], un_parent[c, j] = q, g
    return dest, child, kind, un_src, un_parent


@pytest.mark.parametrize("size", [3, 4, 5])
@pytest.mark.parametrize("geometry", ["classic", "piecepack"])
def test_compiled_move_tables_match_the_plain_ones(size: int, geometry: str) -> None:
    pl = placements(size, geometry)
    rules = DodgemRules(size=size, geometry=geometry)  # type: ignore[arg-type]
    for side in (0, 1):
        want = _move_tables_reference(rules, side, pl.masks[side].tolist())
        got = (pl.dest[side], pl.child[side], pl.kind[side], pl.un_src[side], pl.un_parent[side])
        for w, g in zip(want, got, strict=True):
            assert np.array_equal(w, g)


def test_locate_refuses_a_placement_the_board_cannot_hold() -> None:
    game = DodgemTiers(rules_for("classic", 4))
    four = DodgemPosition(4, 0b1111, 0, 0, "BR")  # four blue cars: 4×4 has three
    with pytest.raises(NotationError, match="too many cars"):
        game.locate(four)
    pl = game.placements
    for side in (0, 1):
        for g in range(0, len(pl.masks[side]), 37):
            assert pl.number(side, int(pl.masks[side][g])) == g
        with pytest.raises(KeyError):
            pl.number(side, 0b1111)


def test_unrank_divides_exactly_at_every_row_edge() -> None:
    """The compiled unrank divides by a multiply (ceil(2**32 / key size)): its (side, x, y)
    must be plain divmod's at the first and last index of rows, for key sizes as large as
    6×6 has (where the multiply's estimate is one too many and must be corrected) and for
    every 4×4 classic tier."""
    from boardlab.games.dodgem.tiers.kernel import _unrank
    from boardlab.games.dodgem.tiers.layout import O_KINV, O_KSIZE, P_A, P_B, P_MIR, reciprocals

    for asz, bsz in [(8191, 16381), (12093, 9999), (3, 7), (1, 1), (16384, 16383)]:
        sizes = np.array([asz, bsz], np.int64)
        blob = np.concatenate([sizes, reciprocals(sizes)])
        params = np.zeros(P_MIR + 1, np.int64)
        params[P_A], params[P_B], params[O_KSIZE], params[O_KINV] = 0, 1, 0, 2
        rows = sorted({*range(min(asz, 50)), *range(max(0, asz - 50), asz)})
        for side in (0, 1):
            for x in rows:
                for y in {0, 1 % bsz, bsz - 1}:
                    p = (side * asz + x) * bsz + y
                    assert _unrank(params, blob, 0, 1, p) == (side, x, y), (asz, bsz, p)
    game = DodgemTiers(rules_for("classic", 4))
    for tier in game.tiers():
        params, blob = game.tier_context(tier)
        a, b = divmod(tier, game._keys)
        asz, bsz = int(blob[params[O_KSIZE] + a]), int(blob[params[O_KSIZE] + b])
        for p in range(2 * asz * bsz):
            assert _unrank(params, blob, a, b, p) == (
                p // (asz * bsz),
                p % (asz * bsz) // bsz,
                p % bsz,
            )


def test_children_come_first_and_forward_moves_leave_the_tier() -> None:
    game = DodgemTiers(rules_for("piecepack", 4))
    plan = make_plan(game)
    level = {t: p.level for p in plan.packs for t in p.tiers}
    assert set(level) == set(game.tiers())
    for t in game.tiers():
        for c in game.child_tiers(t):
            assert level[c] < level[t]


def test_adapter_is_declared_and_rebuilt_from_its_spec() -> None:
    from boardlab.core.registry import get_game

    rules = rules_for("piecepack", 5)
    info = get_game("dodgem")
    assert info.solver_adapter is not None
    game = info.solver_adapter(rules)
    assert isinstance(game, TierGame)
    assert from_spec(game.spec()).spec() == game.spec()
    assert tiers_for(rules_for("classic", 7)) is None
    assert "--variant piecepack --size 5" in game.rebuild_command


def test_known_start_values() -> None:
    game = DodgemTiers(rules_for("classic", 3))
    codes = solve_in_memory(game)
    t, i = game.locate(game.start())
    assert decode(int(codes[t][i])) == (Value.WIN, 19)
