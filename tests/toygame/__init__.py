"""Nim, a toy third game that lives only in this folder.

It registers through the same call the built-in games' entry points lead to, and is then
played through `boardlab play`, `perft`, `engine`, `league` and the web API with no change
anywhere else (test_toygame.py proves it).

Rules: heaps of tokens (`size` heaps of 3, 4, 5, ... tokens); a move takes one or more tokens
from one heap, written `heap-count` (`2-3`: three tokens from heap 2). The player to move with
no token left has no move: under `normal` play that player loses, under `misere` it wins.
Positions are written as the heaps and the side to move: `3/4/5 a`.
"""

from __future__ import annotations

import random
import re
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from rich.text import Text

from boardlab.ai.base import Limits, Player, RandomPlayer
from boardlab.core.errors import IllegalMoveError, NotationError, UsageError
from boardlab.core.outcome import Outcome, Reason
from boardlab.core.registry import Colour, GameInfo, VariantInfo
from boardlab.core.rules import perft_by_rules

LETTERS = "at"
NAMES = ("amber", "teal")


@dataclass(frozen=True, slots=True)
class NimPosition:
    heaps: tuple[int, ...]
    to_move: int


@dataclass(frozen=True, slots=True)
class NimMove:
    heap: int  # 0-based
    take: int

    def __str__(self) -> str:
        return f"{self.heap + 1}-{self.take}"


@dataclass(frozen=True)
class NimRules:
    size: int = 3
    misere: bool = False

    @property
    def game(self) -> str:
        return "nim"

    @property
    def variant(self) -> str:
        return "misere" if self.misere else "normal"

    @property
    def player_names(self) -> tuple[str, str]:
        return NAMES

    @property
    def repetition(self) -> int | None:
        return None

    @property
    def max_plies(self) -> int | None:
        return None

    def options(self) -> Mapping[str, str | int]:
        return {"size": self.size, "misere": int(self.misere)}

    def start(self) -> NimPosition:
        return NimPosition(tuple(range(3, 3 + self.size)), 0)

    def to_move(self, position: NimPosition) -> int:
        return position.to_move

    def legal_moves(self, position: NimPosition) -> list[NimMove]:
        return [NimMove(h, k) for h, n in enumerate(position.heaps) for k in range(1, n + 1)]

    def outcome(self, position: NimPosition) -> Outcome | None:
        if any(position.heaps):
            return None
        p = position.to_move
        return Outcome(p if self.misere else 1 - p, Reason.BLOCKED)

    def play(self, position: NimPosition, move: NimMove) -> NimPosition:
        if not any(position.heaps):
            raise IllegalMoveError("the game is over: no move can be played")
        if not 0 <= move.heap < len(position.heaps):
            raise IllegalMoveError(f"there is no heap {move.heap + 1}")
        if not 1 <= move.take <= position.heaps[move.heap]:
            raise IllegalMoveError(f"heap {move.heap + 1} has {position.heaps[move.heap]} tokens")
        heaps = list(position.heaps)
        heaps[move.heap] -= move.take
        return NimPosition(tuple(heaps), 1 - position.to_move)

    def parse_position(self, text: str) -> NimPosition:
        m = re.fullmatch(r"\s*(\d+(?:/\d+)*)\s+([at])\s*", text.lower())
        if m is None:
            raise NotationError(f"{text.strip()!r} is not a Nim position (e.g. '3/4/5 a')")
        heaps = tuple(int(x) for x in m.group(1).split("/"))
        if len(heaps) != self.size:
            raise NotationError(f"this game has {self.size} heaps, not {len(heaps)}")
        return NimPosition(heaps, LETTERS.index(m.group(2)))

    def format_position(self, position: NimPosition) -> str:
        return "/".join(map(str, position.heaps)) + " " + LETTERS[position.to_move]

    def parse_move(self, text: str) -> NimMove:
        m = re.fullmatch(r"\s*(\d+)-(\d+)\s*", text)
        if m is None:
            raise NotationError(f"{text.strip()!r} is not a Nim move (e.g. 2-3)")
        return NimMove(int(m.group(1)) - 1, int(m.group(2)))

    def format_move(self, move: NimMove) -> str:
        return str(move)


def rules_for(variant: str = "normal", size: int | None = None) -> NimRules:
    if size is not None and size < 1:
        raise UsageError("Nim needs at least one heap")
    return NimRules(3 if size is None else size, variant == "misere")


def perft(rules: NimRules, position: NimPosition, depth: int) -> int:
    """Nim needs no compiled kernel: the rules object's own count."""
    return perft_by_rules(rules, position, depth)


def render(rules: NimRules, position: NimPosition, last: NimMove | None = None) -> Text:
    text = Text()
    for i, n in enumerate(position.heaps):
        text.append(f"heap {i + 1}: " + "●" * n + "\n")
    text.append(f"{NAMES[position.to_move]} to move\n")
    return text


@cache
def _wins(heaps: tuple[int, ...], misere: bool) -> bool:
    """True if the side to move wins (heaps sorted, so equal positions share an entry)."""
    if not any(heaps):
        return misere
    for h, n in enumerate(heaps):
        for k in range(1, n + 1):
            child = list(heaps)
            child[h] -= k
            if not _wins(tuple(sorted(child)), misere):
                return True
    return False


class PerfectNim:
    """Level 2: a winning move where there is one (the first in move order), else any."""

    name = "level 2"

    def choose(
        self,
        rules: Any,
        position: Hashable,
        history: Sequence[Hashable],
        rng: random.Random,
        limits: Limits | None = None,
    ) -> NimMove:
        assert isinstance(rules, NimRules) and isinstance(position, NimPosition)
        moves = rules.legal_moves(position)
        if not moves:
            raise IllegalMoveError("no legal move: the game is over")
        for move in moves:
            child = rules.play(position, move)
            if not _wins(tuple(sorted(child.heaps)), rules.misere):
                return move
        return moves[rng.randrange(len(moves))]


def player_for_level(level: int, rules: Any, tables: Any = None) -> Player:
    return RandomPlayer() if level == 1 else PerfectNim()


_COLOURS = (Colour("amber", "A"), Colour("teal", "T"))

GAME = GameInfo(
    name="nim",
    title="Nim",
    variants=(
        VariantInfo("normal", (3, 4, 5), 3, _COLOURS, "the last to take wins"),
        VariantInfo("misere", (3, 4, 5), 3, _COLOURS, "the last to take loses"),
    ),
    default_variant="normal",
    make=rules_for,
    levels=player_for_level,
    level_count=2,
    perft=perft,
    render=render,
)
