"""An independent check of built tables, tier by tier with bounded memory.

Two checks that share nothing with the retrograde kernel's bookkeeping:

* every stored code must follow from the stored codes of the position's children: a finished
  position holds its terminal value with remoteness 0; otherwise a win in r needs a child lost
  in r - 1 and none lost sooner, a loss in r needs every child won and the longest in r - 1, a
  draw needs a drawn child and no lost one. Local agreement of every value with its remoteness
  proves the whole table: a win's remoteness falls along a chain to a finished game, and a
  position with no such chain cannot be stored as a win or loss;
* a random sample of positions is checked through the game's plain Python rules engine
  (`outcome`, `legal_moves`, `play`) against the table's probes.

The independence is in the bookkeeping, not in the rules: the verifier writes no rules of
its own. Finished positions and moves come from the game (the tier adapter's `primitive` and
`moves`, and the rules object in the sample); for Dodgem both take the finished positions
from the rules kernel (`boardlab.games.dodgem.kernel.terminal_winner`). A wrong rule there is
caught by the tests (hand-made cases, a separate simple Dodgem for the moves, the old slice
solver's own terminal rules in tests/solver/legacy for every value of the 3×3 and 4×4
classic, blocked-loses and misère tables), not here.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numba as nb
import numpy as np

from boardlab.core.outcome import Value
from boardlab.core.retrograde import side_by_side
from boardlab.solver.api import Tablebase, decode

MAX_REPORTED = 20


@nb.njit(cache=False)  # takes compiled functions: see boardlab.core.retrograde
def check_tier(  # type: ignore[no-untyped-def]
    primitive, moves, ctx, codes, max_moves, child_codes, child_base, bad
):
    """Indices of `codes` that do not follow from their children, written to `bad`; returns
    how many there are (`bad` holds the first ones) and the positions checked."""
    slot = np.empty(max_moves, np.int64)
    idx = np.empty(max_moves, np.int64)
    nbad = 0
    checked = 0
    for p in range(codes.shape[0]):
        pr = primitive(ctx, p)
        c = codes[p]
        if pr == 0:
            want = 0
        elif pr >= 2:
            want = pr
            checked += 1
        else:
            checked += 1
            n = moves(ctx, p, slot, idx)
            best_loss = 1 << 30
            worst_win = -1
            draw = False
            broken = n <= 0
            for j in range(n):
                s = slot[j]
                cc = codes[idx[j]] if s < 0 else child_codes[child_base[s] + idx[j]]
                if cc == 0:
                    broken = True
                elif cc == 1:
                    draw = True
                elif cc & 1:
                    best_loss = min(best_loss, (cc - 3) // 2)
                else:
                    worst_win = max(worst_win, (cc - 2) // 2)
            if broken:
                want = -1
            elif best_loss < (1 << 30):
                want = 2 + 2 * (best_loss + 1)
            elif draw:
                want = 1
            else:
                want = 3 + 2 * (worst_win + 1)
        if want != c:
            if nbad < bad.shape[0]:
                bad[nbad] = p
            nbad += 1
    return nbad, checked


@dataclass
class VerifyReport:
    """What was checked and what disagreed."""

    tiers: int = 0
    entries: int = 0
    positions: int = 0
    failures: int = 0
    bad: list[tuple[int, int]] = field(default_factory=list)  # (tier, index), the first ones
    sampled: int = 0
    sample_failures: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when nothing disagreed."""
        return self.failures == 0 and not self.sample_failures


def verify_table(
    rules: Any,
    table: Tablebase,
    sample: int = 20000,
    fraction: float = 1.0,
    seed: int = 1,
    on_tier: Callable[[int, int], None] | None = None,
) -> VerifyReport:
    """Check `fraction` of the tiers (all by default) and `sample` positions by the rules."""
    game = table.game
    k = game.kernel
    tiers = sorted(int(t) for names in table.manifest["pack_tiers"].values() for t in names)
    rng = random.Random(seed)
    if fraction < 1.0:
        tiers = sorted(rng.sample(tiers, max(1, int(len(tiers) * fraction))))
    report = VerifyReport()
    cache: dict[int, Any] = {}

    def codes_of(t: int) -> Any:
        arr = cache.get(t)
        if arr is None:
            arr = table.pack(table.pack_of(t)).tier_codes(t)
            if len(cache) > 64:
                cache.pop(next(iter(cache)))
            cache[t] = arr
        return arr

    bad = np.empty(MAX_REPORTED, np.int64)
    for i, t in enumerate(tiers):
        codes = codes_of(t)
        kids = [codes_of(c) for c in game.child_tiers(t)]
        joined, base = side_by_side(kids, np.uint16)
        nbad, checked = check_tier(
            k.primitive, k.moves, game.tier_context(t), codes, k.max_moves, joined, base, bad
        )
        report.tiers += 1
        report.entries += len(codes)
        report.positions += int(checked)
        report.failures += int(nbad)
        for j in range(min(int(nbad), MAX_REPORTED - len(report.bad))):
            report.bad.append((t, int(bad[j])))
        if on_tier:
            on_tier(i + 1, len(tiers))
    _sample(rules, table, sample, rng, report)
    return report


def _sample(rules: Any, table: Tablebase, count: int, rng: random.Random, r: VerifyReport) -> None:
    """Random positions through the Python rules engine."""
    game = table.game
    tiers = sorted(int(t) for names in table.manifest["pack_tiers"].values() for t in names)
    tries = 0
    while r.sampled < count and tries < 20 * count:
        tries += 1
        t = rng.choice(tiers)
        pos = game.position(t, rng.randrange(game.tier_size(t)))
        if pos is None:
            continue
        r.sampled += 1
        got = table.probe(pos)
        end = rules.outcome(pos)
        want: tuple[Value, int | None]
        if end is not None:
            want = (end.value_for(pos.to_move), 0)
        else:
            kids = [table.probe(rules.play(pos, m)) for m in rules.legal_moves(pos)]
            losses = [rem for v, rem in kids if v is Value.LOSS]
            if losses:
                want = (Value.WIN, 1 + min(x for x in losses if x is not None))
            elif any(v is Value.DRAW for v, _ in kids):
                want = (Value.DRAW, None)
            else:
                want = (Value.LOSS, 1 + max(rem or 0 for _, rem in kids))
        if got != want and len(r.sample_failures) < MAX_REPORTED:
            r.sample_failures.append(f"{pos}: stored {got}, the rules give {want}")


def describe_bad(table: Tablebase, tier: int, index: int) -> str:
    """A failing entry in words."""
    pos = table.game.position(tier, index)
    code = table.code(tier, index)
    stored = "invalid" if code == 0 else str(decode(code))
    return f"tier {table.game.tier_name(tier)} index {index} ({pos}): stored {stored}"
