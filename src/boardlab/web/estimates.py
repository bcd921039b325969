"""Search estimates for the page's analysis where no complete table exists (Dot Dash on
every board, Dodgem boards without a table): the game's `GameInfo.estimate` under the node
budget the game sets, run in a worker process like a computer move."""

from __future__ import annotations

from boardlab.core.errors import IllegalMoveError, UsageError
from boardlab.core.registry import get_game
from boardlab.web import schemas as s
from boardlab.web.limits import Budget
from boardlab.web.service import replay


def estimate_out(spec: s.GameSpec, budget: Budget | None = None) -> s.EstimateOut:
    """Replay the game and estimate its current position (a one-line error for a game
    without an estimator or a finished game)."""
    rules, session = replay(spec)
    info = get_game(rules.game)
    if info.estimate is None:
        raise UsageError(f"{info.title} has no search estimate")
    if session.is_over:
        raise IllegalMoveError("the game is over: nothing to estimate")
    if budget is not None:
        budget.check()
    found = info.estimate(rules, session.position, tuple(session.positions[:-1]))
    return s.EstimateOut(
        to_move=session.to_move,
        ply=len(session.moves),
        score=found.score,
        share=found.share,
        depth=found.depth,
        nodes=found.nodes,
        line=list(found.line),
        proven=found.proven,
        plies=found.plies,
    )
