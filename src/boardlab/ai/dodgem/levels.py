"""Dodgem levels 1-4, the way users pick computer opponents (see docs/ai-levels.md); the
game's `GameInfo.levels` names `player_for_level`.

Dodgem, every variant and size (the defaults; `TUNING` changes them per board where the
ladder measured uneven steps):
1. beginner: looks two plies ahead, misjudges positions (noise of about 0.6 steps) and one
   move in twenty is a random one; it beats a random mover in more than 90% of games;
2. casual: looks three plies ahead with smaller noise (about a quarter step), never random;
3. strong: iterative-deepening alpha-beta, 30,000 nodes a move (about 0.15 s on 5×5),
   and at most 3 plies deep on 3×3 and 4 on 4×4, where deeper search would leave level 2
   far behind and play almost perfectly (3×3 is a first-player win that an 8-ply search
   converts every time);
4. perfect from the complete table where one exists (tables up to 4×4 are built on first
   use), else the same search with 300,000 nodes a move (about 1.5 s); under misère on 6×6
   to 8×8, where no search can force a win, a noisy 3-ply search steadier than level 3's.

Node budgets rather than clocks decide moves, so games replay exactly from their seed; each
search also stops at a time cap that only a slow machine reaches.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from boardlab.ai.base import Player
from boardlab.core.errors import UsageError
from boardlab.core.rules import Rules

if TYPE_CHECKING:
    from boardlab.solver.store import TableStore

LEVEL_NAMES = {1: "beginner", 2: "casual", 3: "strong", 4: "perfect"}

LEVEL3_NODES = 30_000
LEVEL3_TIME_CAP = 1.0
LEVEL4_NODES = 300_000
LEVEL4_TIME_CAP = 5.0


@dataclass(frozen=True, slots=True)
class Tuning:
    """What sets the levels' strength on one board. Level 4 plays from the complete table
    where one exists; only its search, used where none does, is tuned here.

    Noise is in hundredths of a step of the race; `l3_noise` above 0 makes level 3 a noisy
    full-width search `l3_depth` plies deep instead of the node-budget search, and
    `l4_noise` above 0 does the same for level 4's search (`l4_depth` plies); `contempt`
    is what every searching level thinks a draw by repetition costs it (see
    `boardlab.ai.dodgem.search.Searcher`)."""

    l1_noise: float = 60.0
    l1_blunder: float = 0.05
    l2_depth: int = 3
    l2_noise: float = 25.0
    l3_nodes: int = LEVEL3_NODES
    l3_depth: int = 64
    l3_noise: float = 0.0
    l4_depth: int = 3
    l4_noise: float = 0.0
    contempt: int = 0


# The 8×8 levels (a steadier level 1, a 5-ply level 2, a 40,000-node level 3: TUNING below)
_EIGHT = Tuning(l1_noise=8.0, l1_blunder=0.01, l2_depth=5, l2_noise=8.0, l3_nodes=40000)

# Measured per board (docs/ai-levels.md, benchmarks/ladder.py); "*" is any variant.
TUNING: dict[tuple[str, int], Tuning] = {
    ("*", 3): Tuning(l3_depth=3),
    # 3×3 is a first-player win the table converts every time: a noisy 8-ply level 3 wins
    # 42% of its games as first player against it, a sharper one would leave level 2
    # far behind
    ("classic", 3): Tuning(l1_noise=80.0, l3_depth=8, l3_noise=40.0),
    # blocked-loses 3×3: the table won all 100 games against the 3-ply level 3, and level 2
    # scored only 63% against level 1; a 4-ply level 2 and a noisy 7-ply level 3 space it
    ("blocked-loses", 3): Tuning(l1_noise=80.0, l2_depth=4, l3_depth=7, l3_noise=40.0),
    # misère 3×3: levels 2 and 3 drew by repetition (level 3 scored 40% against level 2); with
    # contempt they play on, and a 6-ply level 3 scores 77% against level 2 (3 or 4 plies: 54-56%)
    ("misere", 3): Tuning(l3_depth=6, contempt=400),
    ("*", 4): Tuning(l3_depth=4),
    # misère: cars shuffle sideways and any two levels drew by repetition; contempt of four
    # steps makes them play on, so the stronger one wins. A 6-ply level 3 left the table 88%
    # against it, a 7-ply one scored 86% against level 2 until level 2's noise came down
    ("misere", 4): Tuning(l2_noise=15.0, l3_depth=7, contempt=400),
    # blocked-loses: the 4-ply level 3 lost all 100 games to the table and a plain deeper
    # search swings between 90% against level 2 and 100% against the table; a full-width
    # 7-ply search with a twentieth of a step of noise sits between them
    ("blocked-loses", 4): Tuning(l3_depth=7, l3_noise=5.0),
    # Piecepack: the 4-ply level 3 won every game it started against level 2 (88%); noise of
    # 0.06 steps in a full-width 4-ply search brings it to 81% (0.04: 87%, 0.08: 70%)
    ("piecepack", 4): Tuning(l3_depth=4, l3_noise=6.0),
    # 5×5: the default level 3 scored 92% against level 2 and the table 73% against it;
    # a steadier level 1, a 4-ply level 2 and a 4,000-node level 3 share the span evenly
    ("classic", 5): Tuning(l1_noise=35.0, l1_blunder=0.03, l2_depth=4, l2_noise=8.0, l3_nodes=4000),
    # blocked-loses 5×5: with the defaults level 2 scored 98% against level 1 and level 3
    # 100% against level 2; the span is too wide for steps of 85%: a steadier level 1, a
    # 5-ply level 2 and a 12,000-node level 3 make each step 85-89%
    ("blocked-loses", 5): Tuning(
        l1_noise=20.0, l1_blunder=0.02, l2_depth=5, l2_noise=8.0, l3_nodes=12000
    ),
    # Piecepack 5×5: with the defaults level 2 scored 68% against level 1 and level 3 94%
    # against level 2; a 4-ply level 2 with less noise makes the steps 85%, 85% and 75%
    ("piecepack", 5): Tuning(l2_depth=4, l2_noise=8.0),
    # misère 5×5 is a draw that every level from 2 up held against every other by repetition
    # (steps of 50%); contempt made games run past 1,000 plies. Without contempt, the steps
    # come from errors: a noisier level 1 and level 2 and a noisy 3-ply level 3 (noise 0.4
    # steps: the table drew every game with it; 1.0: it won 95%)
    ("misere", 5): Tuning(l1_noise=150.0, l2_noise=110.0, l3_depth=3, l3_noise=60.0),
    # 6×6 (level 4 searches: no table by default): on classic 6×6 with the defaults level 2
    # and level 3 each won every game against the level below; a steadier level 1 and level
    # 2 and a 4,000-node level 3 space it, and blocked-loses 6×6 alike. Over 40 games a
    # pairing level 3 then scored 91% (blocked-loses 90%) against the 3-ply level 2 (1,000
    # to 3,000 nodes: 85-91%); a 4-ply level 2 makes it 71% (75%), and level 2 82% (84%)
    # against level 1 (docs/ai-levels.md)
    ("*", 6): Tuning(l1_noise=20.0, l1_blunder=0.02, l2_depth=4, l2_noise=8.0, l3_nodes=4000),
    # Piecepack 6×6: with those level 2 and level 3 each scored 90% against the level below
    # (50 games a pairing); a steadier level 1 and a 2,000-node level 3 make it 84% and 80%
    ("piecepack", 6): Tuning(l1_noise=15.0, l1_blunder=0.02, l2_noise=8.0, l3_nodes=2000),
    # misère 6×6 to 8×8: with their size's settings every game between two levels was drawn
    # by repetition (all four rated the same); like misère 5×5 the steps must come from
    # errors: noisy 2- and 3-ply levels (on 6×6 noise 2, 1.5, 1 and, for level 4 where no
    # table exists, 0.5 steps) drift towards their exits, the steadier one outlasting the
    # other. Level 4's 300,000-node search drew every game with level 3: it can force
    # nothing, and on 6×6 0.25 or 0.4 steps of noise (or 0.3 with a contempt of four steps)
    # drew all 20 games as well; 0.5 won 70%. On 7×7 and 8×8 half as much noise again:
    # with the 6×6 noise level 4 scored 60% against level 3 on 7×7 and drew nearly every
    # game on 8×8, even at 3,000 plies. On 6×6 level 4 at 0.5 steps scored 68% against
    # level 3 with 14 of 20 drawn; at 0.6 it keeps moving: 75% and 70% over two seeds, no
    # game lost (0.4: 52%, all but two drawn; docs/ai-levels.md)
    **{
        ("misere", n): Tuning(
            l1_noise=200.0 * k,
            l1_blunder=0.05,
            l2_noise=150.0 * k,
            l3_depth=3,
            l3_noise=100.0 * k,
            l4_noise=l4,
        )
        for n, k, l4 in ((6, 1.0, 60.0), (7, 1.5, 75.0), (8, 1.5, 75.0))
    },
    # 7×7 (level 4 searching): with the 6×6 settings level 4 won all 6 games against the
    # 4,000-node level 3; a 4-ply level 2 and a 15,000-node level 3 make the steps 80%, 82%
    # and 75% (docs/ai-levels.md)
    ("*", 7): Tuning(l1_noise=20.0, l1_blunder=0.02, l2_depth=4, l2_noise=8.0, l3_nodes=15000),
    # Piecepack 7×7: with the 7×7 settings whoever moved first won nearly every game, level 3
    # (even at 500 nodes) converting against level 4 as well; level 2 at 3 plies and a noisy
    # full-width 4-ply level 3 (noise 0.06 steps, as on 4×4) let the second player through.
    # Level 4's 300,000-node search then won 92% against that level 3; the same 4-ply search
    # with half its noise (0.03 steps) scores 78% and 85% over two seeds (0.02: 85%, 0.04:
    # 72%; a 5-ply one with 0.06: 48%)
    ("piecepack", 7): Tuning(
        l1_noise=15.0,
        l1_blunder=0.02,
        l2_noise=8.0,
        l3_depth=4,
        l3_noise=6.0,
        l4_depth=4,
        l4_noise=3.0,
    ),
    # Piecepack 8×8: with the 8×8 settings level 3 won all 20 games against level 2; the
    # Piecepack 7×7 pattern with a little less noise in level 3 (0.05 steps: 75% against
    # level 2; 0.04: 100%, 0.06: 65%; 20 games each)
    ("piecepack", 8): Tuning(
        l1_noise=15.0, l1_blunder=0.02, l2_noise=8.0, l3_depth=4, l3_noise=5.0
    ),
    # 8×8: level 4 (10-11 plies a move there) won all 8 games against a 15,000-node level 3
    # (7 plies); a steadier level 1 (noise 0.08 steps, one move in 100 random), a 5-ply level
    # 2 and a 40,000-node level 3 (8 plies) fill the span: 5-ply level 2 80% against that
    # level 1, a 60,000-node level 3 85% against the 5-ply level 2 (20 games each)
    ("*", 8): _EIGHT,
    # blocked-loses 8×8: the 40,000-node level 3 scored 90% against level 2 and level 4 only
    # 62% against it; at 25,000 nodes 80% and 85% (20 games each; 20,000: 65% and 70%,
    # 30,000: 95% against level 2)
    ("blocked-loses", 8): replace(_EIGHT, l3_nodes=25000),
}


def tuning(variant: str, size: int) -> Tuning:
    """The levels' settings for a variant and board size."""
    found = TUNING.get((variant, size)) or TUNING.get(("*", size))
    return found if found is not None else Tuning()


def dodgem_player(
    level: int, size: int = 5, tables: TableStore | None = None, variant: str = "classic"
) -> Player:
    """A Dodgem player of the given level for boards of `size` under `variant` (players keep
    their own search tables; level 4 reads complete tables from `tables`)."""
    from boardlab.ai.dodgem.perfect import PerfectPlayer
    from boardlab.ai.dodgem.players import NoisySearchPlayer, SearchPlayer

    t = tuning(variant, size)
    if level == 1:
        return NoisySearchPlayer(
            "level 1", depth=2, noise=t.l1_noise, blunder=t.l1_blunder, contempt=t.contempt
        )
    if level == 2:
        return NoisySearchPlayer("level 2", depth=t.l2_depth, noise=t.l2_noise, contempt=t.contempt)
    if level == 3:
        if t.l3_noise > 0:
            return NoisySearchPlayer(
                "level 3", depth=t.l3_depth, noise=t.l3_noise, contempt=t.contempt
            )
        return SearchPlayer(
            "level 3",
            nodes=t.l3_nodes,
            time_cap=LEVEL3_TIME_CAP,
            max_depth=t.l3_depth,
            contempt=t.contempt,
        )
    if level == 4:
        search: SearchPlayer | NoisySearchPlayer
        if t.l4_noise > 0:
            search = NoisySearchPlayer(
                "level 4", depth=t.l4_depth, noise=t.l4_noise, contempt=t.contempt
            )
        else:
            search = SearchPlayer(
                "level 4", nodes=LEVEL4_NODES, time_cap=LEVEL4_TIME_CAP, contempt=t.contempt
            )
        return PerfectPlayer(search, tables)
    raise UsageError(f"unknown level {level} (levels are 1 to 4)")


def player_for_level(
    level: int, rules: Rules[Any, Any], tables: TableStore | None = None
) -> Player:
    """The Dodgem player of `level` (1-4) for the board and variant of `rules`."""
    if level not in LEVEL_NAMES:
        raise UsageError(f"unknown level {level} (levels are 1 to 4)")
    return dodgem_player(level, rules.size, tables, getattr(rules, "variant", "classic"))
