"""Dodgem family as tiers for the tier solver: classic, blocked-loses, misère and Piecepack.

A side's *key* is how many of its cars stand on each of its lines, a line being the set of
squares at the same progress towards its exit edge (classic: blue's files and red's ranks;
Piecepack: red's ranks counted from the bottom and green's from the top). Only forward moves
and exits change a key, so the tier (first side's key, second side's key) holds every cycle
of the game, and a forward move leads to a child tier.

Both sides number their placements the same way: keys in order of car count, then line by
line (line 0 most significant) the rank of the line's set of cars among the subsets of that
size, each line's squares taken in a fixed order. The orders are chosen so that the colour
swap maps placement numbers to themselves:

* classic: blue's line f holds squares (f, 0), (f, 1)...; red's line r holds (0, r), (1, r)...
  so a red placement is the transpose of the blue one with the same number;
* Piecepack: red's line r holds (0, r), (1, r)...; green's line l holds (n-1, n-1-l),
  (n-2, n-1-l)... so a green placement is the half-turn of the red one with the same number.

The symmetry "swap the colours, and transpose (classic) or turn the board half round
(Piecepack)" therefore maps tier (a, b) to tier (b, a) and index (side, x, y) to
(1 - side, y, x). Only tiers with a <= b are solved and stored: about half the work and disk.
Piecepack also has the left-right mirror: it maps each tier to itself, and the placement
with the same number for both sides (placement x of a key to placement mirror(x) of that key),
so a Piecepack tier stores only the pairs (x, y) that are not above their mirror image
(mirror(x), mirror(y)): half the work and disk again (a position that is its own mirror
image is stored once, as before). Together the two symmetries store about a quarter of the
Piecepack positions, half of the classic ones.

Index in tier (a, b) of sizes (A, B): side * A * B + x * B + y, with x and y the placement
numbers of the first and second side within their keys (classic); with the mirror, side * H +
(start of row x) + (y, or for x its own mirror image the rank of y among the placements not
above their mirror), H the number of stored pairs (see `_rank`). Overlapping placements are
invalid.
"""

from boardlab.games.dodgem.tiers.adapter import DodgemTiers, from_spec, tiers_for
from boardlab.games.dodgem.tiers.layout import Placements, line_squares, placements
from boardlab.games.dodgem.tiers.reach import dodgem_reach_tier
from boardlab.games.dodgem.tiers.rowpass import (
    KERNEL_FUNCS,
    dodgem_entries,
    dodgem_solve_tier_plain,
)

__all__ = [
    "KERNEL_FUNCS",
    "DodgemTiers",
    "Placements",
    "dodgem_entries",
    "dodgem_reach_tier",
    "dodgem_solve_tier_plain",
    "from_spec",
    "line_squares",
    "placements",
    "tiers_for",
]
