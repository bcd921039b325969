"""The deterministic plan of a tier game's solve: a tier's level is one more than its deepest
child's, and the tiers of a level, by id, are grouped into packs of about PACK_POSITIONS
positions (a big tier is a pack of its own). Packs of a level depend only on packs of lower
levels, so they can be solved in any order, on any number of workers."""

from __future__ import annotations

from dataclasses import dataclass

from boardlab.core.errors import BoardLabError
from boardlab.core.tiers import TierGame

PACK_POSITIONS = 1 << 21
PACK_TIERS = 4096


class SolveError(BoardLabError):
    """The solver found the game's declarations or its own state inconsistent."""


@dataclass(frozen=True)
class Pack:
    """A group of tiers of one level, solved and stored together."""

    name: str
    level: int
    tiers: tuple[int, ...]
    positions: int
    largest: int  # positions of its largest tier


@dataclass(frozen=True)
class Plan:
    """Every pack, level by level (children first), and which pack holds each tier."""

    levels: tuple[tuple[Pack, ...], ...]
    pack_of: dict[int, str]

    @property
    def packs(self) -> list[Pack]:
        """All packs in solve order."""
        return [p for lv in self.levels for p in lv]

    @property
    def positions(self) -> int:
        """Positions (indices) of every canonical tier."""
        return sum(p.positions for p in self.packs)


def tier_levels(game: TierGame) -> dict[int, int]:
    """Level of each tier: 0 without children, else one more than its deepest child."""
    level: dict[int, int] = {}
    for root in game.tiers():
        if root in level:
            continue
        stack: list[tuple[int, list[int]]] = [(root, list(game.child_tiers(root)))]
        on_path = {root}
        while stack:
            t, kids = stack[-1]
            while kids and kids[-1] in level:
                kids.pop()
            if kids:
                c = kids.pop()
                if c in on_path:
                    raise SolveError(
                        f"{game.ruleset_id}: tier {game.tier_name(c)} is its own child"
                    )
                on_path.add(c)
                stack.append((c, list(game.child_tiers(c))))
                continue
            stack.pop()
            on_path.discard(t)
            level[t] = 1 + max((level[c] for c in game.child_tiers(t)), default=-1)
    return level


def make_plan(game: TierGame) -> Plan:
    """The deterministic plan of a game (see the module docstring)."""
    levels = tier_levels(game)
    by_level: dict[int, list[int]] = {}
    for t, lv in levels.items():
        by_level.setdefault(lv, []).append(t)
    out: list[tuple[Pack, ...]] = []
    pack_of: dict[int, str] = {}
    for lv in sorted(by_level):
        groups: list[list[int]] = [[]]
        size = 0
        for t in sorted(by_level[lv]):
            n = game.tier_size(t)
            if groups[-1] and (size + n > PACK_POSITIONS or len(groups[-1]) >= PACK_TIERS):
                groups.append([])
                size = 0
            groups[-1].append(t)
            size += n
        packs: list[Pack] = []
        for group in groups:
            sizes = [game.tier_size(t) for t in group]
            name = f"L{lv:03d}-{game.tier_name(group[0])}"
            packs.append(Pack(name, lv, tuple(group), sum(sizes), max(sizes)))
            for t in group:
                pack_of[t] = name
        out.append(tuple(packs))
    return Plan(tuple(out), pack_of)


def last_reads(game: TierGame, plan: Plan) -> list[list[int]]:
    """For each level, the tiers that no later level reads: those whose parents all lie in
    it or below (a tier without parents: its own level). Once a level is solved, a solve
    may forget their codes."""
    level = {t: p.level for p in plan.packs for t in p.tiers}
    last = dict(level)
    for t, lv in level.items():
        for c in game.child_tiers(t):
            last[c] = max(last[c], lv)
    out: list[list[int]] = [[] for _ in plan.levels]
    for t in sorted(last):
        out[last[t]].append(t)
    return out
