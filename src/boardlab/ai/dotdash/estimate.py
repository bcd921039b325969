"""Dot Dash's estimate of a position (`GameInfo.estimate`, see `boardlab.ai.estimate`):
level 4's search on the board (its evaluation style and race solver, no random tie-break),
deepened until a node budget is spent; the expected line is found by searching each reply
one ply shallower, within what is left of twice the budget."""

from __future__ import annotations

import random
from collections.abc import Sequence

from boardlab.ai.dotdash.players import MAX_DEPTH, DotDashSearchPlayer
from boardlab.ai.dotdash.search import WIN
from boardlab.ai.estimate import PV_LENGTH, Estimate, forced_move, share_of
from boardlab.ai.levels import board_settings
from boardlab.core.errors import IllegalMoveError
from boardlab.core.registry import get_game
from boardlab.games.dotdash.notation import DotDashPosition
from boardlab.games.dotdash.rules import DotDashRules

NODES = 12_000  # about a second of search on 13×13 and 19×19 (the evaluation is costly)
SCALE = 400.0  # a line of four open on one side more than the other reads as about 60%
PROVEN = WIN - 1000  # scores beyond this are forced results


def estimate_dotdash(
    rules: DotDashRules,
    position: DotDashPosition,
    history: Sequence[DotDashPosition] = (),
    nodes: int = NODES,
) -> Estimate:
    """Level 4's search of `position` within about `nodes` nodes (the first ply of each
    search always finishes); Dot Dash has no repetition rule, so `history` is not used."""
    if rules.outcome(position) is not None:
        raise IllegalMoveError("no estimate: the game is over")
    info = get_game(rules.game)
    settings = board_settings(info, rules.variant, rules.size, info.level_count)
    player = DotDashSearchPlayer(
        "estimate", depth=MAX_DEPTH, style=settings.style, noise=0, qdepth=settings.qdepth
    )
    rng = random.Random(0)  # noise 0: the generator is never drawn from
    result = player.search(rules, position, rng, MAX_DEPTH, None, nodes)
    if result.depth == 0:  # a single legal move: the search does not look further
        return forced_move(rules, position, history, result.move, nodes)
    line = [rules.format_move(result.move)]
    spent = result.nodes
    here, depth = rules.play(position, result.move), result.depth - 1
    while depth > 0 and len(line) < PV_LENGTH and spent < 2 * nodes:
        if rules.outcome(here) is not None:
            break
        reply = player.search(rules, here, rng, depth, None, 2 * nodes - spent)
        spent += reply.nodes
        line.append(rules.format_move(reply.move))
        here, depth = rules.play(here, reply.move), depth - 1
    score = result.score
    if abs(score) >= PROVEN:
        share = 1.0 if score > 0 else 0.0
        return Estimate(score, share, result.depth, spent, tuple(line), True, WIN - abs(score))
    return Estimate(score, share_of(score, SCALE), result.depth, spent, tuple(line), False)
