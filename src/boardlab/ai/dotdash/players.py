"""Dot Dash's searching player (alpha-beta with the race solver, on a fixed depth or a clock)
and the computer's side of the pie dialogue. The levels built from it, with their settings
per board, are `boardlab.ai.dotdash.levels` and its `levels.toml`.

Every search draws its small random tie-breaks from the generator it is given, so a league is
reproducible from its seed.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from boardlab.ai.base import Limits
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

DEFAULT_TIME = 1.0  # level 4's seconds a move on large boards (the data file holds each board's)
MAX_DEPTH = 12  # full-width plies; the move buffers are sized for it
# A search on a clock always finishes level 3's two plies, however long they take: late in
# capture games on the largest boards two plies take 3-9 s, and a one-ply move would be
# weaker than level 3's
MIN_DEPTH = 2


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
        nodes: int | None = None,
    ) -> SearchResult:
        """Search `position` to `depth` plies, or deepen until `seconds` run out; with a node
        budget `nodes` (and no clock), deepen up to `depth` until the budget is spent (the
        first ply always finishes), so the result does not depend on the machine's speed."""
        if rules.outcome(position) is not None:
            raise IllegalMoveError("no legal move: the game is over")
        start = time.perf_counter()
        n_size = position.size
        board, fives, counts = to_arrays(position)
        dirs = directions(n_size)
        mode, limit = mode_code(rules.mode), limit_of(rules.reserve)
        c = position.to_move + 1
        max_depth = min(depth, MAX_DEPTH) if seconds is None else MAX_DEPTH
        deepen = seconds is None and nodes is not None
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
        best, best_score, done, total = 0, 0, 0, 0
        rate = 0.0
        for d in range(1, max_depth + 1):
            if deepen:
                assert nodes is not None
                stats[1] = 1 << 62 if d == 1 else nodes - total
                if stats[1] <= 0:
                    break
            elif seconds is None:
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
            total += int(stats[0])
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
        return SearchResult(move, best_score, done, total)


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
