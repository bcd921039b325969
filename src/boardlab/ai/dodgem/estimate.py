"""Dodgem's estimate of a position without a table (`GameInfo.estimate`, see
`boardlab.ai.estimate`): level 4's search on the board, with its contempt for draws, under a
node budget (deepening as far as the budget goes), and the line its transposition table
holds."""

from __future__ import annotations

from collections.abc import Sequence

from boardlab.ai.dodgem.search import MATE_BOUND, WIN, FastBoard, Searcher
from boardlab.ai.estimate import PV_LENGTH, Estimate, forced_move, share_of
from boardlab.ai.levels import board_settings
from boardlab.core.errors import IllegalMoveError
from boardlab.core.registry import get_game
from boardlab.games.dodgem.notation import DodgemPosition
from boardlab.games.dodgem.rules import DodgemRules

NODES = 60_000  # about a second of search on 6×6 to 8×8
SCALE = 300.0  # three steps of the race ahead reads as about 73%


def estimate_dodgem(
    rules: DodgemRules,
    position: DodgemPosition,
    history: Sequence[DodgemPosition] = (),
    nodes: int = NODES,
) -> Estimate:
    """Level 4's search of `position` (the game so far in `history`) within `nodes` nodes."""
    if rules.outcome(position) is not None:
        raise IllegalMoveError("no estimate: the game is over")
    info = get_game(rules.game)
    settings = board_settings(info, rules.variant, rules.size, info.level_count)
    board = FastBoard(rules)
    searcher = Searcher(board, contempt=settings.contempt)
    result = searcher.search(position, history, node_limit=nodes)
    codes = searcher.principal_variation(position, result.code, PV_LENGTH)
    line = tuple(rules.format_move(board.move_of(c)) for c in codes)
    if result.depth == 0:  # a single legal move: the searcher does not look further
        return forced_move(rules, position, history, board.move_of(result.code), nodes)
    score = result.score
    if abs(score) > MATE_BOUND:
        plies = WIN - abs(score)
        return Estimate(
            score, 1.0 if score > 0 else 0.0, result.depth, result.nodes, line, True, plies
        )
    return Estimate(score, share_of(score, SCALE), result.depth, result.nodes, line, False)
