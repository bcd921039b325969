"""A deliberately simple Dodgem written from the rules page, independent of the package's
bit masks, for differential tests. Squares are (file, rank) pairs; cars are frozensets."""

from __future__ import annotations

from dataclasses import dataclass

OFF = "off"


@dataclass(frozen=True)
class SimpleGame:
    size: int
    geometry: str = "classic"  # or "piecepack"
    blocked: str = "wins"  # wins | loses | passes

    def directions(self, side: int) -> list[tuple[int, int]]:
        """Forward first, then the sideways steps."""
        if self.geometry == "classic":
            return [(1, 0), (0, 1), (0, -1)] if side == 0 else [(0, 1), (-1, 0), (1, 0)]
        return [(0, 1), (-1, 0), (1, 0)] if side == 0 else [(0, -1), (-1, 0), (1, 0)]

    def start(self) -> tuple[frozenset[tuple[int, int]], frozenset[tuple[int, int]], int]:
        n = self.size
        if self.geometry == "classic":
            return frozenset((0, r) for r in range(1, n)), frozenset((f, 0) for f in range(1, n)), 0
        return (
            frozenset((0, r) for r in range(n - 1)),
            frozenset((n - 1, r) for r in range(1, n)),
            0,
        )

    def on_board(self, f: int, r: int) -> bool:
        return 0 <= f < self.size and 0 <= r < self.size

    def moves(self, pos):  # type: ignore[no-untyped-def]
        first, second, side = pos
        if not first or not second:
            return []  # somebody has cleared
        mine = first if side == 0 else second
        occupied = first | second
        result = []
        for f, r in sorted(mine):
            for k, (df, dr) in enumerate(self.directions(side)):
                nf, nr = f + df, r + dr
                if self.on_board(nf, nr):
                    if (nf, nr) not in occupied:
                        result.append(((f, r), (nf, nr)))
                elif k == 0:
                    result.append(((f, r), OFF))
        if not result and self.blocked == "passes":
            return ["pass"]
        return result

    def play(self, pos, move):  # type: ignore[no-untyped-def]
        first, second, side = pos
        if move == "pass":
            return first, second, 1 - side
        src, dst = move
        mine = set(first if side == 0 else second)
        mine.remove(src)
        if dst != OFF:
            mine.add(dst)
        if side == 0:
            return frozenset(mine), second, 1
        return first, frozenset(mine), 0

    def perft(self, pos, depth: int) -> int:  # type: ignore[no-untyped-def]
        if depth == 0:
            return 1
        return sum(self.perft(self.play(pos, m), depth - 1) for m in self.moves(pos))
