"""A self-test any tier adapter must pass before its tables can be trusted: it walks the
adapter's tiers and positions and reports each broken promise of the tier interface
(`boardlab.core.tiers`) as a named error.

- `TIER_CYCLE`: the child relation between tiers has a cycle (or a tier is its own child);
- `NOT_CANONICAL`: a listed tier is not its own canonical tier, a tier of the full game maps
  to a tier that is not listed, or a child tier is not listed;
- `CHILD_TIER_UNDECLARED`: a move leads into a child slot that `child_tiers` does not have;
- `CHILD_INDEX_OUT_OF_RANGE` / `CHILD_POSITION_INVALID`: a move leads past the child tier's
  size, or to an index that is no position there;
- `MOVE_UNMOVE_MISMATCH`: a move inside a tier from i to j is not matched by as many
  un-moves of j back to i (or the other way round);
- `RANK_UNRANK`: unranking then ranking an index does not give it back (or the canonical
  index it stands for);
- `INVALID_MISMATCH`: `primitive` and `position` disagree on whether an index is a position.

    python -m boardlab.solver.selftest --game dodgem --variant classic --size 3

Large tiers are sampled (`--limit` indices a tier, drawn from a seeded generator).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from boardlab.core.tiers import INVALID, UNDECIDED, TierGame

ERRORS = (
    "TIER_CYCLE",
    "NOT_CANONICAL",
    "CHILD_TIER_UNDECLARED",
    "CHILD_INDEX_OUT_OF_RANGE",
    "CHILD_POSITION_INVALID",
    "MOVE_UNMOVE_MISMATCH",
    "RANK_UNRANK",
    "INVALID_MISMATCH",
)


@dataclass(frozen=True)
class Problem:
    """One broken promise: its name (one of `ERRORS`), where, and what was seen."""

    name: str
    tier: int | None
    index: int | None
    detail: str

    def __str__(self) -> str:
        where = "" if self.tier is None else f" tier {self.tier}"
        where += "" if self.index is None else f" index {self.index}"
        return f"{self.name}{where}: {self.detail}"


class _Tier:
    """One tier's context and work arrays, for calling the compiled functions."""

    def __init__(self, game: TierGame, tier: int) -> None:
        self.tier = tier
        self.ctx = game.tier_context(tier)
        self.size = game.tier_size(tier)
        k = game.kernel
        self.kernel = k
        self.slot = np.empty(k.max_moves, np.int64)
        self.index = np.empty(k.max_moves, np.int64)

    def primitive(self, i: int) -> int:
        return int(self.kernel.primitive(self.ctx, i))

    def moves(self, i: int) -> list[tuple[int, int]]:
        n = int(self.kernel.moves(self.ctx, i, self.slot, self.index))
        return [(int(self.slot[k]), int(self.index[k])) for k in range(n)]

    def unmoves(self, i: int) -> list[int]:
        n = int(self.kernel.unmoves(self.ctx, i, self.index))
        return [int(self.index[k]) for k in range(n)]


def _indices(size: int, limit: int | None, rng: random.Random) -> Sequence[int]:
    if limit is None or size <= limit:
        return range(size)
    return sorted(rng.sample(range(size), limit))


def _cycle(children: dict[int, Sequence[int]]) -> list[int] | None:
    state: dict[int, int] = {}
    stack: list[int] = []

    def visit(t: int) -> list[int] | None:
        state[t] = 1
        stack.append(t)
        for c in children.get(t, ()):
            if state.get(c) == 1:
                return [*stack[stack.index(c) :], c]
            if c not in state and (found := visit(c)):
                return found
        stack.pop()
        state[t] = 2
        return None

    for t in children:
        if t not in state and (found := visit(t)):
            return found
    return None


def check_tiers(game: TierGame) -> Iterator[Problem]:
    """The tier-level promises: canonical tiers, declared children, no cycle."""
    listed = list(game.tiers())
    known = set(listed)
    children: dict[int, Sequence[int]] = {}
    for t in listed:
        if game.canonical_tier(t) != t:
            yield Problem(
                "NOT_CANONICAL", t, None, f"its canonical tier is {game.canonical_tier(t)}"
            )
        kids = list(game.child_tiers(t))
        children[t] = kids
        if t in kids:
            yield Problem("TIER_CYCLE", t, None, "the tier is its own child")
        for c in kids:
            if c not in known:
                yield Problem("NOT_CANONICAL", t, None, f"child tier {c} is not listed")
    for t in game.full_game().tiers():
        c = game.canonical_tier(t)
        if c not in known:
            yield Problem("NOT_CANONICAL", None, None, f"tier {t} of the full game maps to {c}")
    cycle = _cycle({t: [c for c in kids if c != t] for t, kids in children.items()})
    if cycle:
        yield Problem("TIER_CYCLE", cycle[0], None, " -> ".join(map(str, cycle)))


def check_tier(
    game: TierGame, tier: int, limit: int | None = None, rng: random.Random | None = None
) -> Iterator[Problem]:
    """The position-level promises within one tier (`limit` indices sampled at most)."""
    rng = rng or random.Random(0)
    here = _Tier(game, tier)
    kids = list(game.child_tiers(tier))
    child_views: dict[int, _Tier] = {}
    known = set(game.tiers())
    for i in _indices(here.size, limit, rng):
        kind = here.primitive(i)
        pos = game.position(tier, i)
        if (kind == INVALID) != (pos is None):
            yield Problem("INVALID_MISMATCH", tier, i, f"primitive {kind}, position {pos!r}")
            continue
        if pos is None:
            continue
        yield from _rank(game, tier, i, pos)
        if kind != UNDECIDED:
            continue
        in_tier: Counter[int] = Counter()
        for slot, j in here.moves(i):
            if slot == -1:
                in_tier[j] += 1
                continue
            if not 0 <= slot < len(kids):
                yield Problem("CHILD_TIER_UNDECLARED", tier, i, f"move into child slot {slot}")
                continue
            child = kids[slot]
            if child not in known:
                continue  # reported by check_tiers
            view = child_views.get(child) or child_views.setdefault(child, _Tier(game, child))
            if not 0 <= j < view.size:
                yield Problem("CHILD_INDEX_OUT_OF_RANGE", tier, i, f"child {child} index {j}")
            elif view.primitive(j) == INVALID:
                yield Problem("CHILD_POSITION_INVALID", tier, i, f"child {child} index {j}")
        for j, count in in_tier.items():
            back = here.unmoves(j).count(i)
            if back != count:
                yield Problem(
                    "MOVE_UNMOVE_MISMATCH", tier, i, f"{count} move(s) to {j}, {back} un-move(s)"
                )
        for j in set(here.unmoves(i)):
            if not 0 <= j < here.size or here.primitive(j) != UNDECIDED:
                continue  # finished or invalid sources may be listed
            ahead = sum(1 for slot, k in here.moves(j) if slot == -1 and k == i)
            back = here.unmoves(i).count(j)
            if ahead != back:
                yield Problem(
                    "MOVE_UNMOVE_MISMATCH", tier, i, f"{back} un-move(s) from {j}, {ahead} move(s)"
                )


def _rank(game: TierGame, tier: int, i: int, pos: Any) -> Iterator[Problem]:
    try:
        found = game.locate(pos)
    except ValueError as exc:
        yield Problem("RANK_UNRANK", tier, i, f"locate failed: {exc}")
        return
    if found == (tier, i):
        return
    t, j = found
    if t != tier:
        yield Problem("RANK_UNRANK", tier, i, f"ranks into tier {t} index {j}")
        return
    # a symmetric twin inside the tier: it must rank to a canonical index that ranks to itself
    twin = game.position(t, j)
    if twin is None or game.locate(twin) != (t, j):
        yield Problem("RANK_UNRANK", tier, i, f"ranks to {j}, which does not rank to itself")


def self_test(
    game: TierGame, limit: int | None = None, seed: int = 0, tiers: Sequence[int] | None = None
) -> list[Problem]:
    """Every problem found: the tier-level checks, then each tier's (all of `game.tiers()`
    unless `tiers` is given; at most `limit` indices a tier, drawn with `seed`)."""
    rng = random.Random(seed)
    problems = list(check_tiers(game))
    for t in tiers if tiers is not None else game.tiers():
        problems.extend(check_tier(game, t, limit, rng))
    return problems


def main(argv: Sequence[str] | None = None) -> int:
    from boardlab.core.errors import BoardLabError
    from boardlab.core.registry import get_game, make_rules

    p = argparse.ArgumentParser(prog="python -m boardlab.solver.selftest", description=__doc__)
    p.add_argument("--game", required=True)
    p.add_argument("--variant", default=None)
    p.add_argument("--size", type=int, default=None)
    p.add_argument("--limit", type=int, default=2000, help="indices checked a tier at most")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    try:
        rules = make_rules(args.game, args.variant, args.size)
        adapter = get_game(rules.game).solver_adapter
        game = None if adapter is None else adapter(rules)
    except BoardLabError as exc:
        print(f"selftest: {exc}", file=sys.stderr)
        return 2
    if game is None:
        print(
            f"selftest: the solver has no tiers for {rules.game} {rules.variant}", file=sys.stderr
        )
        return 2
    problems = self_test(game, args.limit, args.seed)
    for problem in problems:
        print(problem)
    tiers = len(game.tiers())
    print(f"{len(problems)} problem(s) in {tiers} tiers of {game.ruleset_id}")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
