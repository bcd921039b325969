"""Dot Dash rules with the variants as data: standard, frozen stones, sacrificial capture.

Terminal positions (the start-of-turn check of shared/rules/dot-dash.md), in this order:
1. The side to move has more fives than the other side: it wins (reason FIVES).
2. The side to move has no legal move: it loses (reason BLOCKED).
Under the capture variant a session also draws on the third occurrence of a position and at
ply 300 (`repetition` and `max_plies`); the rules themselves do not see the history.

Red is player 0 and blue player 1, whatever the pie setup decides: the side to move is part
of the position, so the player who holds the single stone of a setup simply moves first.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from boardlab.core.errors import IllegalMoveError, NotationError, UnknownGameError, UsageError
from boardlab.core.outcome import Outcome, Reason
from boardlab.games.dotdash import lines
from boardlab.games.dotdash.notation import (
    LETTERS,
    MAX_SIZE,
    MIN_SIZE,
    DotDashMove,
    DotDashPosition,
    Point,
    parse_board,
    parse_setup,
)

Mode = Literal["standard", "frozen", "capture"]

DIRECTIONS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
DEFAULT_SIZE = 13
DEFAULT_RESERVE = 60
MIN_DISTANCE = 3

# Named variants: (mode, reserve per player or None for unlimited).
VARIANTS: dict[str, tuple[Mode, int | None]] = {
    "standard": ("standard", DEFAULT_RESERVE),
    "frozen": ("frozen", DEFAULT_RESERVE),
    "capture": ("capture", DEFAULT_RESERVE),
    "standard-unlimited": ("standard", None),
    "frozen-unlimited": ("frozen", None),
    "capture-unlimited": ("capture", None),
}


@dataclass(frozen=True)
class DotDashRules:
    """Dot Dash on an n×n board: `mode` is the variant rule, `reserve` the stones per player
    (None for unlimited)."""

    size: int = DEFAULT_SIZE
    mode: Mode = "standard"
    reserve: int | None = DEFAULT_RESERVE

    def __post_init__(self) -> None:
        if not MIN_SIZE <= self.size <= MAX_SIZE:
            raise UsageError(f"Dot Dash board size must be 7 to 19, not {self.size}")
        if self.mode not in ("standard", "frozen", "capture"):
            raise UsageError(
                f"Dot Dash rule must be standard, frozen or capture, not {self.mode!r}"
            )
        if self.reserve is not None and self.reserve < 3:
            raise UsageError("the reserve must be at least 3 stones (or unlimited)")

    # -- identity --------------------------------------------------------------------------
    @property
    def game(self) -> str:
        """Registry name."""
        return "dotdash"

    @property
    def variant(self) -> str:
        """The named variant these options make, or 'custom'."""
        for name, (mode, reserve) in VARIANTS.items():
            if (mode, reserve) == (self.mode, self.reserve):
                return name
        return "custom"

    @property
    def player_names(self) -> tuple[str, str]:
        """Colour names of players 0 and 1."""
        return ("red", "blue")

    @property
    def repetition(self) -> int | None:
        """Third occurrence draws under the capture variant; elsewhere positions never repeat."""
        return 3 if self.mode == "capture" else None

    @property
    def max_plies(self) -> int | None:
        """Ply 300 draws under the capture variant."""
        return 300 if self.mode == "capture" else None

    def options(self) -> Mapping[str, str | int]:
        """Every rules option (reserve 0 means unlimited)."""
        return {"size": self.size, "mode": self.mode, "reserve": self.reserve or 0}

    def ruleset_id(self) -> str:
        """A stable text key, e.g. 'dotdash-13-standard-60'."""
        return f"dotdash-{self.size}-{self.mode}-{self.reserve or 'unlimited'}"

    # -- geometry tables -------------------------------------------------------------------
    @cached_property
    def rays(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """For each padded index: the points along each of the 8 directions, nearest first."""
        n, w = self.size, self.size + 1
        out: list[tuple[tuple[int, ...], ...]] = []
        for i in range(n * w):
            f, r = i % w, i // w
            if f >= n:
                out.append(())
                continue
            per_dir = []
            for df, dr in DIRECTIONS:
                ray = []
                x, y = f + df, r + dr
                while 0 <= x < n and 0 <= y < n:
                    ray.append(y * w + x)
                    x, y = x + df, y + dr
                if len(ray) >= MIN_DISTANCE:
                    per_dir.append(tuple(ray))
            out.append(tuple(per_dir))
        return tuple(out)

    @cached_property
    def _moves(self) -> dict[int, DotDashMove]:
        return {}

    def _move(self, src: int, dst: int, capture: bool) -> DotDashMove:
        key = (src << 10 | dst) << 1 | capture
        move = self._moves.get(key)
        if move is None:
            n = self.size
            move = DotDashMove(Point.from_index(src, n), Point.from_index(dst, n), capture)
            self._moves[key] = move
        return move

    # -- counting --------------------------------------------------------------------------
    def fives(self, position: DotDashPosition) -> tuple[int, int]:
        """Five-in-a-rows of red and blue."""
        n = position.size
        return lines.count_fives(position.red, n), lines.count_fives(position.blue, n)

    def five_lines(self, position: DotDashPosition, player: int) -> list[list[Point]]:
        """A player's credited fives, each as its five points (for highlighting)."""
        return lines.five_lines(position.stones(player), position.size)

    def reserve_left(self, position: DotDashPosition, player: int) -> int | None:
        """Stones a player still holds in reserve (None when unlimited)."""
        if self.reserve is None:
            return None
        return self.reserve - position.count(player)

    def reserves(self, position: DotDashPosition) -> tuple[int | None, int | None]:
        """Reserves of red and blue."""
        return self.reserve_left(position, 0), self.reserve_left(position, 1)

    def frozen(self, position: DotDashPosition, player: int) -> int:
        """Mask of a player's stones that may not move (always 0 outside the frozen variant)."""
        if self.mode != "frozen":
            return 0
        return lines.in_long_runs(position.stones(player), position.size)

    # -- positions -------------------------------------------------------------------------
    def start(self) -> DotDashPosition:
        """The fixed setup centred on the board: red on the centre, blue just above and right
        of it, red to move (on 13×13: `setup R:G7 B:G8,H7 r`)."""
        n, c = self.size, self.size // 2
        w = n + 1
        red = 1 << (c * w + c)
        blue = 1 << ((c + 1) * w + c) | 1 << (c * w + c + 1)
        return DotDashPosition(n, red, blue, 0)

    def to_move(self, position: DotDashPosition) -> int:
        """Index of the side to move (0 red, 1 blue)."""
        return position.to_move

    def _budget(self, position: DotDashPosition, player: int) -> int:
        left = self.reserve_left(position, player)
        return 1 << 30 if left is None else left

    def generate(self, position: DotDashPosition) -> list[DotDashMove]:
        """Every move the side to move may make, ignoring whether the game is over."""
        return self._generate(position, first_only=False)

    def _generate(self, position: DotDashPosition, first_only: bool) -> list[DotDashMove]:
        p = position.to_move
        own, opp = position.stones(p), position.stones(1 - p)
        occ = own | opp
        budget = self._budget(position, p)
        slides = budget >= 2
        captures = self.mode == "capture" and budget >= 1
        if not slides and not captures:
            return []
        mask = own & ~self.frozen(position, p)
        rays = self.rays
        out: list[DotDashMove] = []
        while mask:
            low = mask & -mask
            src = low.bit_length() - 1
            mask ^= low
            for ray in rays[src]:
                for k, q in enumerate(ray):
                    if occ >> q & 1:
                        if captures and k >= 2 and opp >> q & 1:
                            out.append(self._move(src, q, True))
                        break
                    if slides and k >= 2:
                        out.append(self._move(src, q, False))
                if first_only and out:
                    return out
        return out

    def legal_moves(self, position: DotDashPosition) -> list[DotDashMove]:
        """Legal moves in a fixed order (stones by index, directions anticlockwise from east,
        nearest destination first); [] when the game is over."""
        red, blue = self.fives(position)
        mine, theirs = (red, blue) if position.to_move == 0 else (blue, red)
        if mine > theirs:
            return []
        return self.generate(position)

    def outcome(self, position: DotDashPosition) -> Outcome | None:
        """The start-of-turn check, as the module docstring defines it."""
        p = position.to_move
        red, blue = self.fives(position)
        mine, theirs = (red, blue) if p == 0 else (blue, red)
        if mine > theirs:
            return Outcome(p, Reason.FIVES)
        if not self._generate(position, first_only=True):
            return Outcome(1 - p, Reason.BLOCKED)
        return None

    def play(self, position: DotDashPosition, move: DotDashMove) -> DotDashPosition:
        """The position after a legal move; raises IllegalMoveError with the reason."""
        self.check_position(position)
        if self.outcome(position) is not None:
            raise IllegalMoveError("the game is over: no move can be played")
        n, p = position.size, position.to_move
        names = self.player_names
        for pt in (move.src, move.dst):
            if not pt.on_board(n):
                raise IllegalMoveError(f"{pt} is not on a {n}×{n} board")
        owner = position.at(move.src)
        if owner is None:
            raise IllegalMoveError(f"there is no stone on {move.src}")
        if owner != p:
            raise IllegalMoveError(
                f"the stone on {move.src} is {names[owner]}'s; {names[p]} to move"
            )
        try:
            df, dr, dist = move.step()
        except NotationError as exc:
            raise IllegalMoveError(str(exc)) from None
        if dist < MIN_DISTANCE:
            raise IllegalMoveError(f"a stone slides at least 3 points; {move} slides {dist}")
        w = n + 1
        src, dst, step = move.src.index(n), move.dst.index(n), dr * w + df
        occ = position.red | position.blue
        for k in range(1, dist):
            q = src + k * step
            if occ >> q & 1:
                raise IllegalMoveError(f"{move} is blocked at {Point.from_index(q, n)}")
        if self.frozen(position, p) >> src & 1:
            raise IllegalMoveError(f"the stone on {move.src} lies in a five and is frozen")
        budget = self._budget(position, p)
        at_dst = position.at(move.dst)
        if move.capture:
            if self.mode != "capture":
                raise IllegalMoveError("captures are played only in the capture variant")
            if at_dst != 1 - p:
                raise IllegalMoveError(f"{move}: there is no {names[1 - p]} stone on {move.dst}")
            if budget < 1:
                raise IllegalMoveError("a capture needs at least 1 stone in reserve")
        else:
            if at_dst is not None:
                hint = ""
                if self.mode == "capture":
                    hint = f" (a capture is written {move.src}x{move.dst})"
                raise IllegalMoveError(f"{move.dst} is occupied{hint}")
            if budget < 2:
                raise IllegalMoveError("a move needs at least 2 stones in reserve")
        own, opp = position.stones(p), position.stones(1 - p)
        own &= ~(1 << src)
        drops = 1 << (dst - step) | 1 << (dst - 2 * step)
        if move.capture:
            opp &= ~(1 << dst)
            own |= drops
        else:
            own |= drops | 1 << dst
        red, blue = (own, opp) if p == 0 else (opp, own)
        return DotDashPosition(n, red, blue, 1 - p)

    def check_position(self, position: DotDashPosition) -> None:
        """Raise IllegalMoveError if the position does not belong to these rules."""
        if position.size != self.size:
            raise IllegalMoveError(
                f"the position is for a {position.size}×{position.size} board, "
                f"not {self.size}×{self.size}"
            )

    # -- notation --------------------------------------------------------------------------
    def _validate(self, position: DotDashPosition, text: str) -> DotDashPosition:
        if position.size != self.size:
            raise NotationError(
                f"{text.strip()!r} is a {position.size}×{position.size} position; this game is "
                f"{self.size}×{self.size}"
            )
        if self.reserve is not None:
            for player in (0, 1):
                if position.count(player) > self.reserve:
                    raise NotationError(
                        f"{LETTERS[player]} has {position.count(player)} stones; the reserve is "
                        f"{self.reserve}"
                    )
        return position

    def parse_setup(self, text: str) -> DotDashPosition:
        """Read setup text such as `setup R:G7 B:G8,H7 r`; raises NotationError."""
        return self._validate(parse_setup(text, self.size), text)

    def format_setup(self, position: DotDashPosition) -> str:
        """A position as setup text."""
        return position.setup_text()

    def parse_position(self, text: str) -> DotDashPosition:
        """Read position text or setup text; raises NotationError."""
        if text.strip().lower().startswith("setup"):
            return self.parse_setup(text)
        return self._validate(parse_board(text), text)

    def format_position(self, position: DotDashPosition) -> str:
        """Canonical position text."""
        return str(position)

    def parse_move(self, text: str) -> DotDashMove:
        """Read a move; points off this board are a NotationError."""
        move = DotDashMove.parse(text)
        for pt in (move.src, move.dst):
            if not pt.on_board(self.size):
                raise NotationError(f"{pt} is not on a {self.size}×{self.size} board")
        return move

    def format_move(self, move: DotDashMove) -> str:
        """Canonical move text."""
        return str(move)


def rules_for(variant: str = "standard", size: int | None = None) -> DotDashRules:
    """Rules of a named variant on an n×n board (default 13)."""
    if variant not in VARIANTS:
        raise UnknownGameError(
            f"unknown Dot Dash variant {variant!r} (known: {', '.join(VARIANTS)})"
        )
    mode, reserve = VARIANTS[variant]
    return DotDashRules(size=DEFAULT_SIZE if size is None else size, mode=mode, reserve=reserve)
