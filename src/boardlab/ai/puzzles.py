"""Puzzles drawn from complete tables: positions with exactly one right move.

Kinds (value for the side to move, from the table):

- ``win``: the side to move wins and exactly one move keeps the win;
- ``fastest``: several moves win but exactly one wins fastest, and every other winning move
  is at least two plies slower;
- ``defend``: the position is a draw, exactly one move avoids losing, and some wrong move loses
  within four plies (an immediate threat to parry);
- ``hold``: the position is a draw and exactly one move holds it; every wrong move loses, but
  only in the long run.

Positions are reached by seeded random play from the start, so a seed gives the same puzzles
on every machine. Each puzzle's solution and line are checked against the table when the
puzzle is made (`check_puzzle`), and the difficulty combines the remoteness, the number of
tempting wrong moves (wrong moves that look as good as the solution two plies deep) and how
often levels 1 and 2 miss the move.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from boardlab.core.errors import UsageError
from boardlab.core.outcome import Value
from boardlab.core.registry import AnyRules

KINDS = ("win", "fastest", "defend", "hold")
THREAT_PLIES = 4  # a wrong move that loses this fast makes a draw puzzle a `defend` one
DRAW_LINE_PLIES = 6  # the solution line of a draw puzzle shows this many plies
MISS_TRIES = 4  # tries of each level when measuring how often the levels miss the move


@dataclass(frozen=True, slots=True)
class Scored:
    """A legal move with its value for the mover and plies to the end (None: a draw)."""

    move: Any
    value: Value
    remoteness: int | None


@dataclass
class Puzzle:
    """One puzzle: the position, the one right move, its line and how hard it is."""

    game: str
    variant: str
    size: int
    kind: str
    position: str
    to_move: str
    value: str  # the position's value for the side to move
    remoteness: int | None  # plies to the end with best play (None: a draw)
    solution: str  # the one right move, in notation
    line: list[str]  # the solution followed by best play on both sides
    wrong: dict[str, str]  # every other move -> "draw", "loss" or "win in N" (slower)
    tempting: int  # wrong moves that look as good as the solution two plies deep
    miss_rate: float  # how often levels 1 and 2 chose another move
    rating: int  # difficulty on a chess-like scale (about 600 to 2000)
    seed: int = 0
    number: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """The puzzle as JSON-ready data."""
        return {
            "id": f"{self.game}-{self.variant}-{self.size}-{self.seed}-{self.number}",
            "game": self.game,
            "variant": self.variant,
            "size": self.size,
            "kind": self.kind,
            "position": self.position,
            "to_move": self.to_move,
            "value": self.value,
            "remoteness": self.remoteness,
            "solution": self.solution,
            "line": self.line,
            "wrong": self.wrong,
            "tempting": self.tempting,
            "miss_rate": round(self.miss_rate, 3),
            "rating": self.rating,
        }


class PuzzleError(UsageError):
    """A stated puzzle the table contradicts (never expected: generation checks every one)."""


def score_moves(rules: AnyRules, table: Any, position: Hashable) -> list[Scored]:
    """Every legal move with its value for the mover, best first (fastest win first, slowest
    loss last)."""
    out = []
    for move in rules.legal_moves(position):
        v, rem = table.probe(rules.play(position, move))
        out.append(Scored(move, Value(v).flipped(), None if rem is None else rem + 1))
    out.sort(key=order)
    return out


def order(s: Scored) -> tuple[int, int]:
    """Sort key: wins (fastest first), draws, losses (slowest first)."""
    if s.value is Value.WIN:
        return (0, s.remoteness or 0)
    if s.value is Value.DRAW:
        return (1, 0)
    return (2, -(s.remoteness or 0))


def classify(scored: Sequence[Scored]) -> str | None:
    """The puzzle kind of a position with these scored moves, or None if it is no puzzle."""
    if len(scored) < 2:
        return None
    best, second = scored[0], scored[1]
    if best.value is Value.WIN:
        if second.value is not Value.WIN:
            return "win"
        if (second.remoteness or 0) >= (best.remoteness or 0) + 2:
            return "fastest"
        return None
    if best.value is Value.DRAW and second.value is Value.LOSS:
        fastest_loss = min(s.remoteness or 0 for s in scored[1:])
        return "defend" if fastest_loss <= THREAT_PLIES else "hold"
    return None


def best_line(
    rules: AnyRules, table: Any, position: Hashable, first: Any, plies: int
) -> list[Any]:
    """`first`, then the table's best move for each side in turn (fastest win, slowest loss,
    a draw held), up to `plies` moves or the end of the game."""
    line = [first]
    pos = rules.play(position, first)
    while len(line) < plies and rules.outcome(pos) is None:
        moves = score_moves(rules, table, pos)
        if not moves:
            break
        line.append(moves[0].move)
        pos = rules.play(pos, moves[0].move)
    return line


def describe_wrong(s: Scored) -> str:
    """What a wrong move leads to: 'loss', 'draw' or 'win in N' (a slower win)."""
    if s.value is Value.WIN:
        return f"win in {s.remoteness}"
    return s.value.value


def tempting_moves(rules: AnyRules, position: Hashable, scored: Sequence[Scored]) -> int:
    """Wrong moves a two-ply look cannot tell from the solution: each leaves the opponent no
    immediate win, just as the solution does."""
    me = rules.to_move(position)

    def safe(move: Any) -> bool:
        child = rules.play(position, move)
        if rules.outcome(child) is not None:
            return True
        for reply in rules.legal_moves(child):
            done = rules.outcome(rules.play(child, reply))
            if done is not None and done.winner is not None and done.winner != me:
                return False
        return True

    if not safe(scored[0].move):
        return 0
    return sum(1 for s in scored[1:] if safe(s.move))


def miss_rate(
    rules: AnyRules, position: Hashable, solution: Any, seed: int, tries: int = MISS_TRIES
) -> float:
    """The share of tries in which levels 1 and 2 play another move than `solution`."""
    from boardlab.ai.base import make_player

    misses = 0
    total = 0
    for level in ("1", "2"):
        player = make_player(level, rules)
        for t in range(tries):
            rng = random.Random(f"miss:{seed}:{level}:{t}")
            misses += player.choose(rules, position, [], rng) != solution
            total += 1
    return misses / total


def rating(kind: str, remoteness: int | None, tempting: int, misses: float) -> int:
    """Difficulty on a chess-like scale: deeper wins, more tempting wrong moves and moves the
    levels miss make a puzzle harder."""
    depth = remoteness if remoteness is not None else 8
    base = {"win": 700, "fastest": 800, "defend": 750, "hold": 900}[kind]
    return int(round(base + 25 * depth + 40 * min(tempting, 6) + 500 * misses))


def make_puzzle(
    rules: AnyRules, table: Any, position: Hashable, seed: int = 0, number: int = 0
) -> Puzzle | None:
    """The puzzle of `position`, or None if it has no single right move."""
    if rules.outcome(position) is not None:
        return None
    scored = score_moves(rules, table, position)
    kind = classify(scored)
    if kind is None:
        return None
    value, rem = table.probe(position)
    value = Value(value)
    best = scored[0]
    plies = (best.remoteness or 1) if best.value is Value.WIN else DRAW_LINE_PLIES
    line = best_line(rules, table, position, best.move, plies)
    tempting = tempting_moves(rules, position, scored)
    misses = miss_rate(rules, position, best.move, seed * 1000 + number)
    fmt = rules.format_move
    puzzle = Puzzle(
        game=rules.game,
        variant=rules.variant,
        size=rules.size,
        kind=kind,
        position=rules.format_position(position),
        to_move=rules.player_names[rules.to_move(position)],
        value=value.value,
        remoteness=rem,
        solution=fmt(best.move),
        line=[fmt(m) for m in line],
        wrong={fmt(s.move): describe_wrong(s) for s in scored[1:]},
        tempting=tempting,
        miss_rate=misses,
        rating=rating(kind, rem, tempting, misses),
        seed=seed,
        number=number,
    )
    check_puzzle(rules, table, puzzle)
    return puzzle


def check_puzzle(rules: AnyRules, table: Any, puzzle: Puzzle) -> None:
    """Check a puzzle against the table: its solution is the only right move, every other
    move fails as stated, and its line is legal best play. PuzzleError if not."""
    position = rules.parse_position(puzzle.position)
    value, rem = table.probe(position)
    if Value(value).value != puzzle.value or rem != puzzle.remoteness:
        raise PuzzleError(f"puzzle {puzzle.position}: the table gives {value.value} {rem}")
    solution = rules.parse_move(puzzle.solution)
    scored = {rules.format_move(s.move): s for s in score_moves(rules, table, position)}
    right = scored.get(puzzle.solution)
    if right is None:
        raise PuzzleError(f"puzzle {puzzle.position}: {puzzle.solution} is not legal")
    for text, s in scored.items():
        if text == puzzle.solution:
            continue
        fails = (
            s.value is not Value.WIN
            if puzzle.kind == "win"
            else s.value is Value.LOSS
            if puzzle.kind in ("defend", "hold")
            else (s.value is not Value.WIN or (s.remoteness or 0) > (right.remoteness or 0))
        )
        if not fails or puzzle.wrong.get(text) != describe_wrong(s):
            raise PuzzleError(f"puzzle {puzzle.position}: {text} does not fail as stated")
    if right.value is not Value(value):
        raise PuzzleError(f"puzzle {puzzle.position}: {puzzle.solution} does not keep the value")
    pos = position
    if puzzle.line[0] != puzzle.solution:
        raise PuzzleError(f"puzzle {puzzle.position}: the line does not start with the solution")
    for text in puzzle.line:
        move = rules.parse_move(text)
        if move not in rules.legal_moves(pos):
            raise PuzzleError(f"puzzle {puzzle.position}: {text} in the line is not legal")
        pos = rules.play(pos, move)
    del solution


def random_positions(rules: AnyRules, rng: random.Random, max_plies: int = 40) -> Iterator[Any]:
    """Positions of random games from the start (each game stops at a random ply)."""
    while True:
        pos = rules.start()
        stop = rng.randrange(1, max_plies)
        for _ in range(stop):
            if rules.outcome(pos) is not None:
                break
            moves = rules.legal_moves(pos)
            pos = rules.play(pos, moves[rng.randrange(len(moves))])
        if rules.outcome(pos) is None:
            yield pos


def generate(
    rules: AnyRules,
    table: Any,
    count: int,
    seed: int = 0,
    kinds: Sequence[str] = KINDS,
    max_tries: int = 20_000,
) -> list[Puzzle]:
    """`count` distinct puzzles of the given kinds from seeded random play, checked against
    the table; fewer if `max_tries` positions do not hold that many."""
    for k in kinds:
        if k not in KINDS:
            raise UsageError(f"unknown puzzle kind {k!r} (expected {', '.join(KINDS)})")
    rng = random.Random(f"puzzles:{rules.game}:{rules.variant}:{rules.size}:{seed}")
    seen: set[str] = set()
    out: list[Puzzle] = []
    positions = random_positions(rules, rng)
    for _ in range(max_tries):
        if len(out) >= count:
            break
        pos = next(positions)
        text = rules.format_position(pos)
        if text in seen:
            continue
        seen.add(text)
        scored = score_moves(rules, table, pos)
        kind = classify(scored)
        if kind is None or kind not in kinds:
            continue
        puzzle = make_puzzle(rules, table, pos, seed, len(out) + 1)
        if puzzle is not None:
            out.append(puzzle)
    return out
