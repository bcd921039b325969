"""The checks of `boardlab verify` besides a game's own checker: through the tier adapter's
compiled moves, for a game that declares no checker, and a sample of positions through the
game's plain Python rules object."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numba as nb
import numpy as np
import numpy.typing as npt

from boardlab.core.checks import BAD_CHILD, TierChecker
from boardlab.core.outcome import Value
from boardlab.core.retrograde_children import side_by_side
from boardlab.core.tiers import TierGame

MAX_REPORTED = 20


@nb.njit(cache=False)  # takes compiled functions: see boardlab.core.retrograde
def _derive_by_moves(primitive, moves, ctx, codes, max_moves, kids, base, out):  # type: ignore[no-untyped-def]
    slot = np.empty(max_moves, np.int64)
    idx = np.empty(max_moves, np.int64)
    for p in range(codes.shape[0]):
        pr = primitive(ctx, p)
        if pr != 1:
            out[p] = pr
            continue
        n = moves(ctx, p, slot, idx)
        lost = 1 << 30
        won = -1
        drawn = False
        bad = n <= 0
        for j in range(n):
            s = slot[j]
            c = codes[idx[j]] if s < 0 else kids[base[s] + idx[j]]
            if c == 0:
                bad = True
            elif c == 1:
                drawn = True
            elif c & 1:
                lost = min(lost, (c - 3) // 2)
            else:
                won = max(won, (c - 2) // 2)
        if bad:
            out[p] = BAD_CHILD
        elif lost < (1 << 30):
            out[p] = 2 + 2 * (lost + 1)
        elif drawn:
            out[p] = 1
        else:
            out[p] = 3 + 2 * (won + 1)


class MovesChecker:
    """The check of a game that declares no checker: its adapter's compiled moves and
    finished positions, the local rule of `boardlab.core.checks` written here."""

    independent = False

    def __init__(self, game: TierGame) -> None:
        self.game = game

    @property
    def name(self) -> str:
        """Names the adapter whose moves are used."""
        return f"adapter-moves:{self.game.ruleset_id}"

    def spec(self) -> dict[str, Any]:
        """The adapter's spec, to rebuild it elsewhere."""
        return {"checker": "boardlab.solver.verify_moves:moves_checker", "game": self.game.spec()}

    def child_tiers(self, tier: int) -> Sequence[int]:
        """The adapter's child tiers."""
        return self.game.child_tiers(tier)

    def work_bytes(self, tier: int) -> int:
        """The result and the children side by side."""
        kids = sum(self.game.tier_size(c) for c in self.game.child_tiers(tier))
        return 2 * self.game.tier_size(tier) + 2 * kids

    def derive(
        self, tier: int, codes: npt.NDArray[np.uint16], children: Sequence[npt.NDArray[np.uint16]]
    ) -> npt.NDArray[np.uint16]:
        """Each entry from the adapter's moves and the stored codes."""
        k = self.game.kernel
        kids, base = side_by_side(children, np.uint16)
        out = np.empty(len(codes), np.uint16)
        _derive_by_moves(
            k.primitive, k.moves, self.game.tier_context(tier), codes, k.max_moves, kids, base, out
        )
        return out


def moves_checker(spec: dict[str, Any]) -> MovesChecker:
    """Rebuild a `MovesChecker` from its spec."""
    from boardlab.core.tiers import tier_game_from_spec

    return MovesChecker(tier_game_from_spec(spec["game"]))


def checker_of(rules: Any, game: TierGame) -> TierChecker:
    """The game's declared checker for these rules, else the adapter's moves."""
    from boardlab.core.registry import get_game

    made: TierChecker | None = None
    name = getattr(getattr(game, "rules", rules), "game", None)
    if name is not None:
        declared = getattr(get_game(str(name)), "table_checker", None)
        if declared is not None:
            made = declared(getattr(game, "rules", rules))
    return made if made is not None else MovesChecker(game)


def sample_by_rules(rules: Any, table: Any, count: int, seed: int = 1) -> tuple[int, list[str]]:
    """`count` random positions checked through the game's plain Python rules (`outcome`,
    `legal_moves`, `play`) against the table's probes: an end-to-end check of the layout
    (rank and unrank) and of the rules object. Returns (sampled, failures as lines)."""
    game = table.game
    rng = random.Random(seed)
    tiers = sorted(int(t) for names in table.manifest["pack_tiers"].values() for t in names)
    sampled = 0
    tries = 0
    failures: list[str] = []
    while sampled < count and tries < 20 * count:
        tries += 1
        t = rng.choice(tiers)
        pos = game.position(t, rng.randrange(game.tier_size(t)))
        if pos is None:
            continue
        sampled += 1
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
        if got != want and len(failures) < MAX_REPORTED:
            failures.append(
                f"rules disagree: {pos}: stored {_pair(got)}, the rules engine gives {_pair(want)}"
            )
    return sampled, failures


def _pair(v: tuple[Value, int | None]) -> str:
    return "a draw" if v[1] is None else f"a {v[0].value} in {v[1]}"
