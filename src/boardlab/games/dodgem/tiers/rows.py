"""What both first passes of a Dodgem tier (`linepass`, `mirrorpass`) and the reachability
walk (`reach`) share: the shape of a tier's rows, the moves a row shares, and settling one
position (finished, invalid, or what its moves found)."""

from __future__ import annotations

import numba as nb

from boardlab.core.retrograde_body import finish, record
from boardlab.core.retrograde_work import INVALID, NO_MOVES
from boardlab.games.dodgem.kernel import BLOCKED_PASSES, terminal_winner
from boardlab.games.dodgem.tiers.layout import (
    O_KOFF,
    O_KSIZE,
    O_MASKS,
    O_REC,
    P_A,
    P_B,
    P_K,
    P_SLOTS,
    P_SYM,
    P_W,
    REC_KEY,
    REC_KIND,
    REC_Z,
)


@nb.njit(cache=True, inline="always")
def _decided(work, code, p, m0, m1, side, blocked, misere):
    """For the row pass: settle p if it is an invalid index or finished by rule 1 (someone
    has cleared), and say so."""
    if m0 & m1:
        finish(work, code, p, INVALID)
        return True
    winner = terminal_winner(m0, m1, side, 1, blocked, misere)
    if winner < 0:
        return False
    finish(work, code, p, 2 if winner == side else 3)
    return True


@nb.njit(cache=True, inline="always")
def _settle(work, code, p, c, winc, lc, hd, legal, m0, m1, side, blocked, misere):
    """Store what the row pass found of p (`legal` car moves, `c` of them sideways): a
    position without a car move is finished unless the rules pass; returns the level where
    `record` queued it (0 if none) or NO_MOVES."""
    if legal == 0:
        winner = terminal_winner(m0, m1, side, 0, blocked, misere)
        if winner >= 0:
            finish(work, code, p, 2 if winner == side else 3)
            return 0
        if blocked != BLOCKED_PASSES:
            return NO_MOVES
        c = 1  # the pass: the same placement, the other side to move
    return record(work, p, c, winc, lc, hd)


@nb.njit(cache=True, inline="always")
def _row_shape(params, blob):
    """(|A|, |B|, where keys a and b start, where each side's masks start) of a tier."""
    a = params[P_A]
    b = params[P_B]
    asz = blob[params[O_KSIZE] + a]
    bsz = blob[params[O_KSIZE] + b]
    offa = blob[params[O_KOFF] + a]
    offb = blob[params[O_KOFF] + b]
    return asz, bsz, offa, offb, params[O_MASKS], params[O_MASKS + 1]


@nb.njit(cache=True, inline="always")
def _shared_moves(params, blob, child_base, side, g, slot, idx):
    """The moves of `side`'s placement g, shared by the positions of a row (the first side
    on x = g's number: they differ in y) or of a column (the second side on y: they differ
    in x), tier stored without the mirror: per move, in `slot` the child entry of the
    position with the other placement 0, as its child's `child_base` plus its index (in the
    solve an address, see `child_code`; in reachability a flat offset), or for a sideways
    move, inside the tier, to placement z: -1 - z; and in `idx` its stride in that placement
    | (destination square + 1) << 40. Returns how many."""
    other = params[P_B] if side == 0 else params[P_A]
    osz = blob[params[O_KSIZE] + other]
    o = params[O_REC + side] + g * params[P_W]
    nj = 0
    for j in range(params[P_W]):
        r = blob[o + j]
        if r < 0:
            break
        dest = (r & 63) << 40
        z = r >> REC_Z
        if (r >> REC_KIND) & 3 == 0:
            slot[nj] = -1 - z
            idx[nj] = dest
        else:
            k2 = (r >> REC_KEY) & 4095
            ksz = blob[params[O_KSIZE] + k2]
            at = child_base[params[P_SLOTS + side * params[P_K] + k2]]
            # the child tier is (k2, b) or (a, k2), stored swapped where its first key is
            # the larger; the varying placement is then either its last index (stride 1)
            # or the first (stride |k2|)
            swapped = params[P_SYM] != 0 and (k2 > other if side == 0 else other > k2)
            if swapped == (side == 1):  # (1, z, y) of (k2, b), or (1, z, x) of (k2, a)
                slot[nj] = at + (ksz + z) * osz
                idx[nj] = dest | 1
            else:  # (0, y, z) of (b, k2), or (0, x, z) of (a, k2)
                slot[nj] = at + z
                idx[nj] = dest | ksz
        nj += 1
    return nj
