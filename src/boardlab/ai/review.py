"""Game review: what each move of a game did to its value, by the complete table.

Each move is marked by the value for the side that made it, before and after:

- ``win-loss``: a won position thrown into a loss;
- ``win-draw``: a won position thrown into a draw;
- ``draw-loss``: a drawn position thrown into a loss;
- ``slower``: the win is kept, but more slowly than the best move allows;
- ``best``: the move keeps the value (the fastest win, a draw held, the slowest loss or a
  loss no slower than another losing move);
- ``ok``: a lost position stays lost, but faster than the best defence.

The first three are mistakes. Beside every move stands the best move and the line that
follows it with best play.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from boardlab.ai.puzzles import Probe, best_line, score_moves
from boardlab.core.errors import IllegalMoveError
from boardlab.core.outcome import Value
from boardlab.core.registry import AnyRules

MISTAKES = ("win-loss", "win-draw", "draw-loss")
LINE_PLIES = 8  # plies of the better line shown beside a move


@dataclass(frozen=True)
class MoveReview:
    """One move of the game and what it did to its value."""

    ply: int  # 1 for the first move of the game
    number: int  # the move number as a record prints it (a pair of plies per number)
    side: str  # the colour that moved
    move: str
    position: str  # the position before the move
    before: Value  # the value for the mover before the move
    before_remoteness: int | None
    after: Value  # the value for the mover after the move
    after_remoteness: int | None
    mark: str
    best: str  # the table's best move in `position`
    best_remoteness: int | None
    better_line: list[str]  # the best move and best play after it
    first_player: bool = True  # whether the first player (blue in Dodgem) made the move

    @property
    def label(self) -> str:
        """The move as a record shows it: '7. a2-b2' for the first player, '7… b1-b2' for
        the second."""
        return f"{self.number}{'.' if self.first_player else '…'} {self.move}"

    @property
    def mistake(self) -> bool:
        """True when the move threw away a win or a draw."""
        return self.mark in MISTAKES

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "ply": self.ply,
            "number": self.number,
            "label": self.label,
            "first_player": self.first_player,
            "side": self.side,
            "move": self.move,
            "position": self.position,
            "before": self.before.value,
            "before_remoteness": self.before_remoteness,
            "after": self.after.value,
            "after_remoteness": self.after_remoteness,
            "mark": self.mark,
            "mistake": self.mistake,
            "best": self.best,
            "best_remoteness": self.best_remoteness,
            "better_line": self.better_line,
        }


@dataclass(frozen=True)
class Review:
    """A reviewed game: every move and a summary."""

    moves: list[MoveReview]

    @property
    def mistakes(self) -> list[MoveReview]:
        """The moves that threw away a win or a draw."""
        return [m for m in self.moves if m.mistake]

    @property
    def slower(self) -> list[MoveReview]:
        """The moves that kept a win but not the fastest one."""
        return [m for m in self.moves if m.mark == "slower"]

    def summary(self) -> str:
        """One line: '3 mistakes, first at move 7 (blue a2-b2); 2 slower wins'."""
        n = len(self.mistakes)
        if n == 0:
            text = "no mistakes"
        else:
            first = self.mistakes[0]
            text = (
                f"{n} mistake{'s' if n != 1 else ''}, first at move {first.number} "
                f"({first.side} {first.move})"
            )
        k = len(self.slower)
        if k:
            text += f"; {k} slower win{'s' if k != 1 else ''}"
        return text

    def by_side(self) -> dict[str, int]:
        """Mistakes per colour."""
        out: dict[str, int] = {}
        for m in self.mistakes:
            out[m.side] = out.get(m.side, 0) + 1
        return out

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        first = self.mistakes[0] if self.mistakes else None
        return {
            "summary": self.summary(),
            "mistakes": len(self.mistakes),
            "first_mistake": None if first is None else first.ply,
            "slower": len(self.slower),
            "mistakes_by_side": self.by_side(),
            "moves": [m.as_dict() for m in self.moves],
        }


def mark_of(before: Value, after: Value, after_rem: int | None, best_rem: int | None) -> str:
    """The mark of a move from the mover's value before and after it."""
    if before is Value.WIN:
        if after is Value.LOSS:
            return "win-loss"
        if after is Value.DRAW:
            return "win-draw"
        return "slower" if (after_rem or 0) > (best_rem or 0) else "best"
    if before is Value.DRAW:
        return "draw-loss" if after is Value.LOSS else "best"
    return "best" if (after_rem or 0) >= (best_rem or 0) else "ok"


def review_game(rules: AnyRules, table: Probe, start: Hashable, moves: Sequence[Any]) -> Review:
    """Review the moves played from `start` against the complete `table`; IllegalMoveError
    for a move the rules refuse."""
    out: list[MoveReview] = []
    pos = start
    first_side = rules.to_move(start)
    for ply, move in enumerate(moves, 1):
        if rules.outcome(pos) is not None:
            break
        scored = score_moves(rules, table, pos)
        v, rem = table.probe(pos)
        before = Value(v)
        played = next((s for s in scored if s.move == move), None)
        if played is None:
            raise IllegalMoveError(f"move {ply} ({rules.format_move(move)}) is not legal")
        best = scored[0]
        side = rules.to_move(pos)
        out.append(
            MoveReview(
                ply=ply,
                number=(ply - 1 + first_side) // 2 + 1,
                first_player=side == 0,
                side=rules.player_names[side],
                move=rules.format_move(move),
                position=rules.format_position(pos),
                before=before,
                before_remoteness=rem,
                after=played.value,
                after_remoteness=played.remoteness,
                mark=mark_of(before, played.value, played.remoteness, best.remoteness),
                best=rules.format_move(best.move),
                best_remoteness=best.remoteness,
                better_line=[
                    rules.format_move(m)
                    for m in best_line(rules, table, pos, best.move, LINE_PLIES)
                ],
            )
        )
        pos = rules.play(pos, move)
    return Review(out)
