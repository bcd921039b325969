"""Search estimates for the page's analysis where no complete table exists (Dot Dash on
every board, Dodgem boards without a table): the game's `GameInfo.estimate` under the node
budget the game sets, run in a worker process like a computer move."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from boardlab.core.errors import IllegalMoveError, UsageError
from boardlab.core.registry import Ref, get_game
from boardlab.web import schemas as s
from boardlab.web.limits import Budget
from boardlab.web.service import replay

QUICK_SHARE = 4  # a quick estimate (a review's) spends a quarter of the game's node budget


def quick_nodes(estimate: Callable[..., Any]) -> int | None:
    """The node budget of a quick estimate: a quarter of the estimator's own default, or
    None for an estimator that takes no `nodes` (it then runs as it always does)."""
    fn = estimate.load() if isinstance(estimate, Ref) else estimate
    param = inspect.signature(fn).parameters.get("nodes")
    if param is None or not isinstance(param.default, int):
        return None
    return max(1, param.default // QUICK_SHARE)


def estimate_out(spec: s.GameSpec, budget: Budget | None = None) -> s.EstimateOut:
    """Replay the game and estimate its current position, briefly for a quick request (a
    one-line error for a game without an estimator or a finished game)."""
    rules, session = replay(spec)
    info = get_game(rules.game)
    if info.estimate is None:
        raise UsageError(f"{info.title} has no search estimate")
    if session.is_over:
        raise IllegalMoveError("the game is over: nothing to estimate")
    if budget is not None:
        budget.check()
    quick = quick_nodes(info.estimate) if getattr(spec, "quick", False) else None
    extra = {} if quick is None else {"nodes": quick}
    found = info.estimate(rules, session.position, tuple(session.positions[:-1]), **extra)
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
