"""Shared helpers: random positions by random play, and a slow reference prover."""

from __future__ import annotations

import random

from boardlab.games.dodgem import DodgemPosition, DodgemRules, rules_for

VARIANTS = ("classic", "blocked-loses", "misere", "piecepack")


def random_position(rules: DodgemRules, plies: int, rng: random.Random) -> DodgemPosition:
    """The position after up to `plies` random moves from the start (stops at a game end)."""
    pos = rules.start()
    for _ in range(plies):
        moves = rules.legal_moves(pos)
        if not moves:
            break
        pos = rules.play(pos, moves[rng.randrange(len(moves))])
    return pos


def rules_of(variant: str, size: int) -> DodgemRules:
    """Rules of a named variant and size."""
    return rules_for(variant, size)


def ref_solve(
    rules: DodgemRules, pos: DodgemPosition, depth: int, path: frozenset[DodgemPosition]
) -> int:
    """Plain minimax over the rules object: 1 if the side to move wins within `depth` plies,
    -1 if it loses within them, 0 otherwise; a position repeated on the line is no result."""
    if pos in path:
        return 0
    end = rules.outcome(pos)
    if end is not None:
        return 1 if end.winner == pos.to_move else -1
    if depth == 0:
        return 0
    line = path | {pos}
    values = [
        -ref_solve(rules, rules.play(pos, m), depth - 1, line) for m in rules.legal_moves(pos)
    ]
    if 1 in values:
        return 1
    return -1 if all(v == -1 for v in values) else 0


def ref_forced(rules: DodgemRules, pos: DodgemPosition, max_depth: int) -> tuple[int, int] | None:
    """(winner, plies) of the shortest forced result within `max_depth` plies, or None."""
    for d in range(max_depth + 1):
        v = ref_solve(rules, pos, d, frozenset())
        if v:
            return (pos.to_move if v > 0 else 1 - pos.to_move), d
    return None
