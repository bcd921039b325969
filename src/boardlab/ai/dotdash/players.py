"""Dot Dash computer levels 1 to 4 behind the common `Player` interface.

1. beginner: level 2's move, but now and then a random legal one: one move in three on
   9×9, in ten on 13×13 and larger (`level1_blunder`; games are longer on larger
   boards, so each blunder must be rarer for the same strength), rarer under captures on
   9×9, 13×13 and 19×19 and more often under frozen stones on 12×12, 13×13 and 18×18
   (`MODE_LEVEL1_BLUNDER`), where level 2's step measured outside the range; on 8×8 a
   looser beginner that solves no races, picks loosely among near-equal moves and plays one
   move in ten at random (8×8 has its own ladder in `BOARD_LEVELS`);
2. greedy and race-aware: one ply plus the race solver (takes a lead the opponent cannot
   answer, answers a lead when it can), judged on line windows only;
3. alpha-beta to 2 plies with the race solver and an evaluation of lines, threats and mobility;
4. iterative deepening of the same search within a time limit per move (default 1 s; less
   on some 14×14 and 15×15 boards, 1.5 s on standard 18×18) on 13×13 and larger boards,
   never shallower than level 3's two plies; on 9×9 and smaller, where a second reaches 4
   plies and more and level 4 won 95% of its games against level 3, the same search to a
   fixed 3 plies (84% against level 3), and likewise on 10×10 to 12×12 (below).

7×7 is too small for that ladder: a one-ply level 2 scores only 79% against a random mover
there, so its levels search deeper (`BOARD_LEVELS`): level 1 two plies with 15% of its moves
random, then three, four and five plies (level 4 with a coarser tie-break). On 10×10 to
12×12 the steps were too wide: level 1 blunders less, and levels 3 and 4 take a coarser
tie-break, level 4 a fixed 3 plies; so do levels 3 and 4 under frozen stones on 13×13 and
14×14 (`MODE_LEVELS`), where level 4's second of deepening won nearly every game. With
captures on 16×16, 17×17 and 19×19, where level 4's second searches little deeper than
level 3, level 3 takes the coarse tie-break, and on 16×16 and 17×17 it also plays a random
move now and then (one in a hundred, one in fifty). On capture 19×19 levels 1 to 3 also
solve races only 4 plies deep instead of 6 (`qdepth`): there level 3's two plies with the
full race solver took up to 40 s late in the game, and level 4's clock bought it nothing.
Where one level stood too far above the one below, a shallower race solver also brings it
nearer: level 4 under frozen stones on 12×12 (2 plies), level 3 on frozen 17×17 (3 plies).

Every level draws its small random tie-breaks from the generator it is given, so a league is
reproducible from its seed.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from boardlab.ai.base import Limits, Player
from boardlab.ai.dotdash.search import QDEPTH, WIN, WINDOW, _order, search_root
from boardlab.core.errors import IllegalMoveError, UsageError
from boardlab.core.rules import Rules
from boardlab.games.dotdash.kernel import (
    directions,
    gen_moves,
    limit_of,
    mode_code,
    move_buffer,
    offset,
    to_arrays,
)
from boardlab.games.dotdash.notation import DotDashMove, DotDashPosition, Point
from boardlab.games.dotdash.pie import random_setup
from boardlab.games.dotdash.rules import DotDashRules

DEFAULT_TIME = 1.0
# Level 1's chance of a random move, measured (docs/ai-levels-dotdash.md): on 9×9 0.3 beats
# a random mover in 98% and scores 25% against level 2; on 13×13 0.3 scored 8-10% against
# level 2, 0.1 scores 24% (and 100% against a random mover). (8×8 has a level 1 of its own:
# `BOARD_LEVELS`.)
LEVEL1_BLUNDER = {9: 0.3, 13: 0.1}
# Level 1's chance under one variant rule on one board, where the board's left level 2's
# step outside the range (level 2's score against level 1, 50 games per ordered pair, seed
# 1): captures make a random move cost more, frozen stones less
MODE_LEVEL1_BLUNDER: dict[tuple[str, int], float] = {
    ("capture", 9): 0.2,  # 0.3: 88%; 0.25: 86% (25 games a pair); 0.2: 80%
    ("capture", 13): 0.07,  # 0.1: 90%; 0.07: 77%; 0.05: 74% (25 games)
    ("capture", 19): 0.07,  # 0.1: 90% (25 games); 0.07: 79%
    ("frozen", 12): 0.2,  # 0.15: 64% (25 games); 0.2: 78%; 0.25: 86% (25 games)
    ("frozen", 13): 0.15,  # 0.1: 72% (25 games); 0.125: 70%; 0.15: 80%; 0.2: 92% (25 games)
    ("frozen", 18): 0.2,  # 0.1 and 0.15: 66% (25 games each); 0.2: 84%; 0.25: 90% (25 games)
}
MAX_DEPTH = 12  # full-width plies; the move buffers are sized for it
# Level 4 on boards up to SMALL_BOARD searches LEVEL4_SMALL_DEPTH plies instead of deepening
# for a second (docs/ai-levels-dotdash.md: at 1 s it scored 95% against level 3 on 9×9)
SMALL_BOARD = 9
LEVEL4_SMALL_DEPTH = 3
# A search on a clock always finishes level 3's two plies, however long they take: where
# one ply used up the second (late in capture games on the largest boards two plies take
# 3-9 s) level 4 used to play a one-ply move, weaker than level 3's
MIN_DEPTH = 2


@dataclass(frozen=True)
class LevelSettings:
    """One level on one board: search depth and style, the chance of a random move, the
    tie-break noise (in evaluation units), a time limit that turns on deepening, and the
    plies of the race solver below the search."""

    depth: int
    style: int
    blunder: float = 0.0
    noise: int = 4
    time: float | None = None
    qdepth: int = QDEPTH


# The usual levels 2 to 4 on large boards; level 1 is level 2 with a blunder rate by size
# (`level1_blunder`), and the per-board and per-rule ladders below vary these
_LEVEL2 = LevelSettings(depth=1, style=0)
_LEVEL3 = LevelSettings(depth=2, style=1)
_LEVEL4 = LevelSettings(depth=3, style=1, time=DEFAULT_TIME)
# level 4 on boards up to SMALL_BOARD: a fixed depth, no clock
_LEVEL4_SMALL = replace(_LEVEL4, depth=LEVEL4_SMALL_DEPTH, time=None)

# Boards with their own ladder, levels 1 to 4 (measured: docs/ai-levels-dotdash.md). On 7×7
# the usual levels scored 75%, 65%, 91% and 74% each against the one below; these 91%, 82%,
# 69% and 81% (level 4 without its coarse tie-break: 88%).
BOARD_LEVELS: dict[int, tuple[LevelSettings, ...]] = {
    7: (
        LevelSettings(depth=2, style=1, blunder=0.15),
        LevelSettings(depth=3, style=1),
        LevelSettings(depth=4, style=1),
        LevelSettings(depth=5, style=1, noise=40),
    ),
}
# 10×10 to 12×12: the usual levels scored 100%, 100%, 85%, 95% on 10×10, 100%, 90%, 90%,
# 100% on 11×11 and 100%, 70%, 95%, 85% on 12×12 (10 games a pairing); level 1 blundering
# 0.15 of its moves, levels 3 and 4 with the coarse tie-break and level 4 a fixed 3 plies:
# 68%, 78%, 80%; 85%, 75%, 83%; 73%, 78%, 88% (30 games a pairing, level 1 100% against random)
_MIDDLE = (
    LevelSettings(depth=1, style=0, blunder=0.15),
    LevelSettings(depth=1, style=0),
    LevelSettings(depth=2, style=1, noise=40),
    LevelSettings(depth=3, style=1, noise=40),
)
BOARD_LEVELS.update({10: _MIDDLE, 11: _MIDDLE, 12: _MIDDLE})
# 8×8: the usual levels 2 to 4, but no rate of random moves alone spaced level 2 from level 1
# there: at one move in four level 1 beat a random mover in 92% of its games and level 2
# scored only 63-66% against it, and at one in three level 1 beat a random mover in only 89%
# (level 2 70%). Level 1 solves no races below its ply (it takes a lead or answers one only
# when its own move does it), picks loosely among moves of nearly equal windows (tie-break
# 0-100) and plays one move in ten at random: 91-94% against a random mover and level 2 80%
# against it, under every rule (300 games a pairing)
BOARD_LEVELS[8] = (
    LevelSettings(depth=1, style=0, blunder=0.1, noise=100, qdepth=0),
    _LEVEL2,
    _LEVEL3,
    _LEVEL4_SMALL,
)
# The upper levels of one variant rule on one board size, where the board's own were uneven
# (levels 3 and 4, or 2 to 4, replacing the board's):
# under frozen stones on 13×13 and 14×14 level 4 deepening for 1 s won 100% and 95% of its
# games against level 3 (95% at 0.25 s on 13×13); the middle boards' levels 3 and 4 (the
# coarse tie-break, level 4 a fixed 3 plies) scored 70% and 85% there, 80% and 70% on 14×14
# (20 games a pairing)
MODE_LEVELS: dict[tuple[str, int], tuple[LevelSettings, ...]] = {
    ("frozen", 13): _MIDDLE[2:],
    ("frozen", 14): _MIDDLE[2:],
}
# Frozen 12×12: that level 4 scored 92% against level 3 (88% over 40 games; a tie-break of
# 0-80 or 0-120 no lower); solving races 2 plies deep instead of 6 it scores 78% (60 games on
# each of seeds 1 and 2; 4 plies: 92%, 3 plies: 92%, none: 55%)
MODE_LEVELS[("frozen", 12)] = (replace(_MIDDLE[3], qdepth=2),)
# With captures on 16×16 to 19×19 level 4's second mostly finishes 2 plies, as level 3
# searches: it scored 62%, 55%, 65% and 45% against level 3 there (level 3 80%, 90%, 60%
# and 82% against level 2). On 17×17 and 19×19 level 3 takes the coarse tie-break (85% and
# 78% against level 2, level 4 62% against it on both); on 16×16 that measured no better
# (90% and 60%), and a level 3 with one move in twenty random scored only 55% against
# level 2 on 17×17
_COARSE_LARGE = (replace(_LEVEL3, noise=40), _LEVEL4)
# Capture 19×19: level 4 stayed at 60-62% against that level 3 (a level 3 that also slips
# one move in a hundred measured 61%, level 4 with the coarse tie-break too 57%, a 2 s clock
# 44%): late in the game level 3's two plies with six of race solving took up to 40 s, so
# level 4's clock bought it nothing more. Levels 1 to 3 there solve races 4 plies deep
# instead of 6: level 3 so scored 52% against the old level 2 and level 4 85% against it;
# with level 2 also at 4 plies level 3 scores 72% against it (at 5 plies level 3 scored 62%
# against level 2 and level 4 60% against it; level 2 at 2 plies lost 39 of 40 to level 3).
# The ladder with these levels: level 3 72% against level 2, level 4 72% against level 3
_RACE4 = 4
MODE_LEVELS[("capture", 19)] = (
    replace(_LEVEL2, qdepth=_RACE4),
    replace(_COARSE_LARGE[0], qdepth=_RACE4),
    _LEVEL4,
)
# On 16×16 and 17×17 level 4 still scored only 55-62% against that level 3, so level 3 also
# plays a random move now and then there: one in fifty on 17×17 (70% against level 2,
# level 4 78% against it); on 16×16 that took level 3 to 60% against level 2 (level 4
# 75% against it), one in a hundred to 68% (level 4 78%). Level 4 searching deeper
# within its second (its 8 best root moves past two plies, and a race solver of 3 plies)
# measured no stronger (docs/ai-levels-dotdash.md).
for _size, _blunder in ((16, 0.01), (17, 0.02)):
    MODE_LEVELS[("capture", _size)] = (
        replace(_COARSE_LARGE[0], blunder=_blunder),
        _COARSE_LARGE[1],
    )
# Frozen 17×17: level 3 scored 92% against level 2 (level 4 80% against it); the coarse
# level 3 85%, but level 4 then 90% against it. Solving races 3 plies deep instead of 6,
# level 3 scores 85% against level 2 (4 plies: 90%, 2 plies: 65%)
MODE_LEVELS[("frozen", 17)] = (replace(_LEVEL3, qdepth=3), _LEVEL4)
# Standard 19×19: level 3 scored 65% against level 2 and level 4 68% against level 3; the
# coarse level 3 scores 72% against level 2 and level 4 72% against it (standard-unlimited
# 19×19, the same levels, 65% and 62% before)
MODE_LEVELS[("standard", 19)] = _COARSE_LARGE
# Standard and frozen 15×15, capture 14×14: level 4 deepening for 1 s scored 88%, 92% and
# 90% against level 3 (standard-unlimited 15×15 95%); deepening for half a second 80%, 85%
# and 80% (80%). On standard 14×14 (90%) half a second measured no lower (92%), a quarter
# of a second 72%
for _mode, _size, _time in (
    ("standard", 14, DEFAULT_TIME / 4),
    ("standard", 15, DEFAULT_TIME / 2),
    ("frozen", 15, DEFAULT_TIME / 2),
    ("capture", 14, DEFAULT_TIME / 2),
):
    MODE_LEVELS[(_mode, _size)] = (_LEVEL3, replace(_LEVEL4, time=_time))
# Capture 18×18: the usual level 3 scored 60% against level 2 and level 4 78% against it;
# a level 2 that plays a random move one time in fifty brings level 3 to 75% (the coarse
# level 3, one move in a hundred random, scored 73% against level 2 but level 4 only 60%
# against it)
MODE_LEVELS[("capture", 18)] = (replace(_LEVEL2, blunder=0.02), _LEVEL3, _LEVEL4)
# Standard 18×18: level 4 deepening for 1 s scored 68% against level 3; for 1.5 s 85%
# (the coarse level 3, or half its noise, left level 3 at 58-60% against level 2)
MODE_LEVELS[("standard", 18)] = (_LEVEL3, replace(_LEVEL4, time=1.5 * DEFAULT_TIME))


@dataclass
class SearchResult:
    """What a search found: the move, its score for the mover, and the depth completed."""

    move: DotDashMove
    score: int
    depth: int
    nodes: int


class DotDashSearchPlayer:
    """Alpha-beta with the race solver; `time` (seconds) turns on iterative deepening."""

    def __init__(
        self,
        name: str,
        depth: int,
        style: int,
        time_limit: float | None = None,
        noise: int = 4,
        qdepth: int = QDEPTH,
    ) -> None:
        if not 0 <= qdepth <= QDEPTH:
            raise UsageError(f"the race solver searches 0 to {QDEPTH} plies, not {qdepth}")
        self.name = name
        self.depth = depth
        self.style = style
        self.time_limit = time_limit
        self.noise = noise
        self.qdepth = qdepth
        self.last: SearchResult | None = None

    def choose(
        self,
        rules: Rules[Any, Any],
        position: Hashable,
        history: Sequence[Hashable],
        rng: random.Random,
        limits: Limits | None = None,
    ) -> Any:
        """The best move found for the side to move."""
        if not isinstance(rules, DotDashRules) or not isinstance(position, DotDashPosition):
            raise UsageError("this player plays Dot Dash only")
        depth, seconds = self.depth, self.time_limit
        if limits is not None:
            if limits.depth is not None:
                depth = max(1, limits.depth)
            if limits.time is not None and seconds is not None:
                seconds = limits.time
        self.last = self.search(rules, position, rng, depth, seconds)
        return self.last.move

    def search(
        self,
        rules: DotDashRules,
        position: DotDashPosition,
        rng: random.Random,
        depth: int,
        seconds: float | None,
    ) -> SearchResult:
        """Search `position` to `depth` plies, or deepen until `seconds` run out."""
        if rules.outcome(position) is not None:
            raise IllegalMoveError("no legal move: the game is over")
        start = time.perf_counter()
        n_size = position.size
        board, fives, counts = to_arrays(position)
        dirs = directions(n_size)
        mode, limit = mode_code(rules.mode), limit_of(rules.reserve)
        c = position.to_move + 1
        max_depth = min(depth, MAX_DEPTH) if seconds is None else MAX_DEPTH
        buf = move_buffer(n_size, max_depth + QDEPTH + 6)  # the race solver goes QDEPTH + 2 deeper
        keybuf = np.zeros(buf.shape[:2], dtype=np.int64)
        root = np.zeros((buf.shape[1], 4), dtype=np.int32)
        n = gen_moves(board, counts, c, dirs, mode, limit, root)
        root = root[:n].copy()
        if n == 1:
            max_depth = 0  # a forced move: nothing to search
        keys = np.zeros(n, dtype=np.int64)
        _order(board, fives, counts, c, root, n, keys, True, dirs, mode, limit, WINDOW, self.style)
        noise = np.array([rng.randrange(self.noise + 1) for _ in range(n)], dtype=np.int64)
        stats = np.zeros(3, dtype=np.int64)
        best, best_score, done, nodes = 0, 0, 0, 0
        rate = 0.0
        for d in range(1, max_depth + 1):
            if seconds is None:
                if d < max_depth:
                    continue
                stats[1] = 1 << 62
            else:
                left = seconds - (time.perf_counter() - start)
                if left <= 0 and d > MIN_DEPTH:
                    break  # level 3's plies are always searched, even past the limit
                # Nodes per second of the last finished depth: the first depth also pays
                # for loading the compiled kernels, so an average from the start is too low.
                stats[1] = 1 << 62 if d <= MIN_DEPTH else max(int(rate * left), 1000)
            stats[0], stats[2] = 0, 0
            t_depth = time.perf_counter()
            scores = np.full(n, -(1 << 40), dtype=np.int64)
            i = search_root(
                board, fives, counts, c, d, root, n, noise, scores,
                dirs, mode, limit, buf, keybuf, WINDOW, self.style, stats, self.qdepth,
            )  # fmt: skip
            nodes += int(stats[0])
            rate = int(stats[0]) / max(time.perf_counter() - t_depth, 1e-3)
            if stats[2]:
                break
            best, best_score, done = i, int(scores[i]), d
            order = np.argsort(-scores, kind="stable")
            order = np.concatenate(([i], order[order != i]))
            root, noise = root[order].copy(), noise[order].copy()
            best = 0
            if abs(best_score) >= WIN - 1000:
                break  # a forced result: deeper search changes nothing
        off = offset(n_size)
        src, dst, cap = int(root[best, 0]), int(root[best, 1]), bool(root[best, 3])
        move = DotDashMove(
            Point.from_index(src - off, n_size), Point.from_index(dst - off, n_size), cap
        )
        return SearchResult(move, best_score, done, nodes)


def level1_blunder(size: int) -> float:
    """Level 1's chance of a random move on a board of `size`: the measured rates, linear
    between the measured sizes and constant beyond them."""
    sizes = sorted(LEVEL1_BLUNDER)
    if size <= sizes[0]:
        return LEVEL1_BLUNDER[sizes[0]]
    if size >= sizes[-1]:
        return LEVEL1_BLUNDER[sizes[-1]]
    hi = next(n for n in sizes if n >= size)
    lo = max(n for n in sizes if n <= size)
    if lo == hi:
        return LEVEL1_BLUNDER[lo]
    w = (size - lo) / (hi - lo)
    return round(LEVEL1_BLUNDER[lo] + w * (LEVEL1_BLUNDER[hi] - LEVEL1_BLUNDER[lo]), 3)


def level_settings(size: int, mode: str = "standard") -> tuple[LevelSettings, ...]:
    """Levels 1 to 4 on a board of `size` under the variant rule `mode`: the board's own
    ladder (`BOARD_LEVELS`), else the usual one (level 4 deepening for a second on large
    boards), with the upper levels from `MODE_LEVELS` where the rule has its own. On the
    usual ladder level 1 is level 2 as it ends up there, slipping at the rate of
    `MODE_LEVEL1_BLUNDER` where the rule has one, else at `level1_blunder`'s by size."""
    own = BOARD_LEVELS.get(size)
    upper = MODE_LEVELS.get((mode, size), ())
    blunder = MODE_LEVEL1_BLUNDER.get((mode, size))
    if own is None:
        usual = (
            _LEVEL2,
            _LEVEL3,
            _LEVEL4_SMALL if size <= SMALL_BOARD else _LEVEL4,
        )
        upper_three = (*usual[: len(usual) - len(upper)], *upper)
        rate = level1_blunder(size) if blunder is None else blunder
        return (replace(upper_three[0], blunder=rate), *upper_three)
    if blunder is not None:
        own = (replace(own[0], blunder=blunder), *own[1:])
    return (*own[: len(own) - len(upper)], *upper)


def player_for_level(
    level: int, rules: Rules[Any, Any] | None = None, tables: Any = None
) -> Player:
    """The Dot Dash player of a level from 1 (beginner) to 4 (strongest) on the rules'
    board (13×13 without rules); Dot Dash has no tables, so `tables` is not used."""
    if not 1 <= level <= 4:
        raise UsageError(f"Dot Dash levels are 1 to 4, not {level}")
    from boardlab.ai.beginner import BlunderingPlayer

    if rules is None:
        ls = level_settings(13)[level - 1]
    else:
        ls = level_settings(rules.size, getattr(rules, "mode", "standard"))[level - 1]
    name = f"level {level}"
    player = DotDashSearchPlayer(
        name,
        depth=ls.depth,
        style=ls.style,
        time_limit=ls.time,
        noise=ls.noise,
        qdepth=ls.qdepth,
    )
    return BlunderingPlayer(name, player, ls.blunder) if ls.blunder else player


def pie_agent(rules: DotDashRules, rng: random.Random, tries: int = 12) -> Callable[[str], str]:
    """The computer's side of the pie dialogue (`games.dotdash.pie`): answers "place" with
    the most balanced of a few random central setups, and "choose <setup>" with the colour a
    2-ply search prefers."""
    judge = DotDashSearchPlayer("pie", depth=2, style=1, noise=0)

    def mover_score(position: DotDashPosition) -> int:
        return judge.search(rules, position, rng, 2, None).score

    def answer(request: str) -> str:
        if request.strip() == "place":
            options = [random_setup(rules, rng) for _ in range(tries)]
            best = min(options, key=lambda p: abs(mover_score(p)))
            return best.setup_text()
        if request.startswith("choose"):
            position = rules.parse_setup(request.removeprefix("choose").strip())
            mover = position.to_move
            colour = mover if mover_score(position) >= 0 else 1 - mover
            return "rb"[colour]
        raise UsageError(f"the pie agent does not understand {request!r}")

    return answer
