"""Puzzles drawn from complete tables: positions with exactly one right move.

Three kinds (value for the side to move, from the table):

- ``win``: the side to move wins and exactly one move keeps the win, or (``fastest`` set)
  several moves win but exactly one keeps the fastest win, every other one at least two
  plies slower;
- ``defend``: the position is a draw, exactly one move avoids losing, and some wrong move loses
  within three plies per board row (9 on 3×3, 12 on 4×4: a threat to parry now);
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
from dataclasses import dataclass
from typing import Any, Protocol

from boardlab.core.errors import BoardLabError, UsageError
from boardlab.core.outcome import Value
from boardlab.core.registry import AnyRules

KINDS = ("win", "defend", "hold")
THREAT_PLIES_PER_ROW = 3  # a wrong move losing within 3 plies a board row makes a `defend` one
DRAW_LINE_PLIES = 6  # the solution line of a draw puzzle shows this many plies
WIN_LINE_PLIES = 12  # ...and that of a win at most this many (the rest is more of the same)
MISS_TRIES = 4  # tries of each level when measuring how often the levels miss the move
MISS_LEVELS = ("1", "2")


class Probe(Protocol):
    """A complete table: value for the side to move and remoteness (None: a draw)."""

    def probe(self, position: Any) -> tuple[Value, int | None]:
        """Value and remoteness of `position`."""
        ...


@dataclass(frozen=True, slots=True)
class Scored:
    """A legal move with its value for the mover and plies to the end (None: a draw)."""

    move: Any
    value: Value
    remoteness: int | None


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: the position, the one right move, its line and how hard it is."""

    game: str
    variant: str
    size: int
    kind: str
    fastest: bool  # a `win` puzzle in which other moves win too, only more slowly
    position: str
    to_move: str
    value: str  # the position's value for the side to move
    remoteness: int | None  # plies to the end with best play (None: a draw)
    solution: str  # the one right move, in notation
    line: list[str]  # the solution followed by best play on both sides
    wrong: dict[str, str]  # every other move -> "draw", "loss" or "win in N" (slower)
    tempting: int  # wrong moves that look as good as the solution two plies deep
    miss_rate: float  # how often levels 1 and 2 chose another move
    rating: int  # difficulty on a chess-like scale (about 700 to 2000)
    seed: int = 0
    number: int = 0

    @property
    def id(self) -> str:
        """A stable name: ruleset, seed and number."""
        return f"{self.game}-{self.variant}-{self.size}-{self.seed}-{self.number}"

    def as_dict(self) -> dict[str, Any]:
        """The puzzle as JSON-ready data."""
        return {
            "id": self.id,
            "game": self.game,
            "variant": self.variant,
            "size": self.size,
            "kind": self.kind,
            "fastest": self.fastest,
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


class PuzzleError(BoardLabError):
    """A stated puzzle the table contradicts (generation checks every one)."""


def score_moves(rules: AnyRules, table: Probe, position: Hashable) -> list[Scored]:
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


def threat_plies(size: int) -> int:
    """A wrong move that loses within this many plies makes a draw puzzle a `defend` one."""
    return THREAT_PLIES_PER_ROW * size


def classify(scored: Sequence[Scored], size: int) -> tuple[str, bool] | None:
    """(kind, fastest) of a position with these scored moves on a board of `size`, or None
    if it is no puzzle."""
    if len(scored) < 2:
        return None
    best, second = scored[0], scored[1]
    if best.value is Value.WIN:
        if second.value is not Value.WIN:
            return "win", False
        if (second.remoteness or 0) >= (best.remoteness or 0) + 2:
            return "win", True
        return None
    if best.value is Value.DRAW and second.value is Value.LOSS:
        fastest_loss = min(s.remoteness or 0 for s in scored[1:])
        return ("defend" if fastest_loss <= threat_plies(size) else "hold"), False
    return None


def best_reply(rules: AnyRules, table: Probe, position: Hashable) -> Any:
    """The table's best move: the fastest win, else a draw, else the slowest loss."""
    return score_moves(rules, table, position)[0].move


def best_line(
    rules: AnyRules, table: Probe, position: Hashable, first: Any, plies: int
) -> list[Any]:
    """`first`, then the table's best move for each side in turn (fastest win, slowest loss,
    a draw held), up to `plies` moves or the end of the game."""
    line = [first]
    pos = rules.play(position, first)
    while len(line) < plies and rules.outcome(pos) is None:
        move = best_reply(rules, table, pos)
        line.append(move)
        pos = rules.play(pos, move)
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
    rules: AnyRules, position: Hashable, solution: Any, seed: str, tries: int = MISS_TRIES
) -> float:
    """The share of tries in which levels 1 and 2 play another move than `solution`."""
    from boardlab.ai.base import make_player

    misses = 0
    total = 0
    for level in MISS_LEVELS:
        player = make_player(level, rules)
        for t in range(tries):
            rng = random.Random(f"miss:{seed}:{level}:{t}")
            misses += player.choose(rules, position, [], rng) != solution
            total += 1
    return misses / total


def rating(kind: str, depth: int, tempting: int, misses: float) -> int:
    """Difficulty on a chess-like scale: a deeper win (or a slower punishment of the wrong
    move in a draw), more tempting wrong moves and moves the levels miss make it harder."""
    depth = min(depth, 30)
    base = {"win": 700, "defend": 750, "hold": 750}[kind]
    return round(base + 20 * depth + 40 * min(tempting, 6) + 500 * misses)


def make_puzzle(
    rules: AnyRules, table: Probe, position: Hashable, seed: int = 0, number: int = 0
) -> Puzzle | None:
    """The puzzle of `position`, checked against the table, or None if it has no single
    right move."""
    if rules.outcome(position) is not None:
        return None
    scored = score_moves(rules, table, position)
    found = classify(scored, rules.size)
    if found is None:
        return None
    kind, fastest = found
    value, rem = table.probe(position)
    best = scored[0]
    plies = min(best.remoteness or 1, WIN_LINE_PLIES) if kind == "win" else DRAW_LINE_PLIES
    line = best_line(rules, table, position, best.move, plies)
    tempting = tempting_moves(rules, position, scored)
    fmt = rules.format_move
    text = rules.format_position(position)
    misses = miss_rate(rules, position, best.move, f"{seed}:{text}")
    # how far ahead one must see: the win's length, or how soon a wrong move is punished
    depth = rem if rem is not None else min(s.remoteness or 0 for s in scored[1:])
    puzzle = Puzzle(
        game=rules.game,
        variant=rules.variant,
        size=rules.size,
        kind=kind,
        fastest=fastest,
        position=text,
        to_move=rules.player_names[rules.to_move(position)],
        value=Value(value).value,
        remoteness=rem,
        solution=fmt(best.move),
        line=[fmt(m) for m in line],
        wrong={fmt(s.move): describe_wrong(s) for s in scored[1:]},
        tempting=tempting,
        miss_rate=misses,
        rating=rating(kind, depth, tempting, misses),
        seed=seed,
        number=number,
    )
    check_puzzle(rules, table, puzzle)
    return puzzle


def check_puzzle(rules: AnyRules, table: Probe, puzzle: Puzzle) -> None:
    """Check a puzzle against the table: its solution keeps the value and is the only move
    that does (or, `fastest`, the only fastest win), every other move fails as stated, and
    its line is legal best play for the loser. PuzzleError if not."""

    def wrong(why: str) -> PuzzleError:
        return PuzzleError(f"puzzle {puzzle.id} ({puzzle.position}): {why}")

    position = rules.parse_position(puzzle.position)
    value, rem = table.probe(position)
    if Value(value).value != puzzle.value or rem != puzzle.remoteness:
        raise wrong(f"the table gives {Value(value).value} {rem}")
    scored = {rules.format_move(s.move): s for s in score_moves(rules, table, position)}
    right = scored.get(puzzle.solution)
    if right is None:
        raise wrong(f"{puzzle.solution} is not a legal move")
    if right.value is not Value(value) or (right.value is Value.WIN and right.remoteness != rem):
        raise wrong(f"{puzzle.solution} does not keep the {puzzle.value}")
    if set(puzzle.wrong) != set(scored) - {puzzle.solution}:
        raise wrong("the wrong moves are not the other legal moves")
    for text, s in scored.items():
        if text == puzzle.solution:
            continue
        if puzzle.kind == "win" and puzzle.fastest:
            fails = s.value is not Value.WIN or (s.remoteness or 0) > (right.remoteness or 0)
        elif puzzle.kind == "win":
            fails = s.value is not Value.WIN
        else:
            fails = s.value is Value.LOSS
        if not fails or puzzle.wrong[text] != describe_wrong(s):
            raise wrong(f"{text} does not fail as stated")
    if not puzzle.line or puzzle.line[0] != puzzle.solution:
        raise wrong("the line does not start with the solution")
    pos = position
    for i, text in enumerate(puzzle.line):
        move = rules.parse_move(text)
        if move not in rules.legal_moves(pos):
            raise wrong(f"{text} in the line is not legal")
        if i % 2 == 1 and move != best_reply(rules, table, pos):
            raise wrong(f"{text} in the line is not the best defence")
        pos = rules.play(pos, move)


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
    table: Probe,
    count: int,
    seed: int = 0,
    kinds: Sequence[str] = KINDS,
    max_tries: int = 20_000,
    patience: int = 400,
) -> list[Puzzle]:
    """`count` distinct puzzles from seeded random play, each checked against the table.

    The kinds take turns (win, defend, hold, win, ...); a kind that `patience` more random
    positions do not supply gives its turn to the next one. Fewer puzzles come back when
    `max_tries` positions do not hold `count`."""
    for k in kinds:
        if k not in KINDS:
            raise UsageError(f"unknown puzzle kind {k!r} (expected {', '.join(KINDS)})")
    wanted = [k for k in KINDS if k in kinds]
    rng = random.Random(f"puzzles:{rules.game}:{rules.variant}:{rules.size}:{seed}")
    seen: set[str] = set()
    found: dict[str, list[Any]] = {k: [] for k in wanted}
    out: list[Puzzle] = []
    positions = random_positions(rules, rng)
    tries = 0

    def scan() -> bool:
        """Look at one more random position; False when the tries are spent."""
        nonlocal tries
        if tries >= max_tries:
            return False
        tries += 1
        pos = next(positions)
        text = rules.format_position(pos)
        if text not in seen:
            seen.add(text)
            kind = classify(score_moves(rules, table, pos), rules.size)
            if kind is not None and kind[0] in found:
                found[kind[0]].append(pos)
        return True

    turn = 0
    while len(out) < count:
        want = wanted[turn % len(wanted)]
        turn += 1
        waited = 0
        while not found[want] and waited < patience and scan():
            waited += 1
        order_ = [want] + [k for k in wanted if k != want]
        kind = next((k for k in order_ if found[k]), None)
        if kind is None:
            if tries >= max_tries:
                break
            continue
        puzzle = make_puzzle(rules, table, found[kind].pop(0), seed, len(out) + 1)
        if puzzle is not None:
            out.append(puzzle)
    return out
