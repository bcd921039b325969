"""Compiled retrograde analysis of one slice, and the colour-swap copy of a solved slice.

Codes stored per position (value for the side to move): 0 invalid entry (overlapping cars),
1 draw, 2 + 2r win in r plies, 3 + 2r loss in r plies.
"""

from __future__ import annotations

import numba as nb
import numpy as np

INVALID, DRAW = 0, 1
INF = 1 << 30
MAX_REMOTENESS = 30000

# The slice solver gets its tables as a tuple of arrays; the order is fixed here.
# (key_size, key_offset, slice_offset, key_of, blue_mask, red_mask,
#  b_dest, b_child, b_kind, b_un_src, b_un_parent,
#  r_dest, r_child, r_kind, r_un_src, r_un_parent)


@nb.njit(cache=True)
def _local_of(side: int, ib: int, ir: int, bs: int, rs: int) -> int:
    return side * bs * rs + ib * rs + ir


@nb.njit(cache=True)
def _push(head, ev_pos, ev_next, ev_kind, n_ev, r, p, kind):  # type: ignore[no-untyped-def]
    ev_pos[n_ev] = p
    ev_kind[n_ev] = kind
    ev_next[n_ev] = head[r]
    head[r] = n_ev
    return n_ev + 1


@nb.njit(cache=True)
def solve_slice(  # type: ignore[no-untyped-def]
    table,
    bk,
    rk,
    num_keys,
    key_size,
    key_offset,
    slice_offset,
    key_of,
    blue_mask,
    red_mask,
    b_dest,
    b_child,
    b_kind,
    b_un_src,
    b_un_parent,
    r_dest,
    r_child,
    r_kind,
    r_un_src,
    r_un_parent,
    blocked_wins,
    misere,
    limit,
):
    """Solve slice (bk, rk) into `table` (children slices must be solved); returns max rem.

    Returns -1 if a child entry is unsolved or invalid (a scheduling bug), -2 if a code
    would exceed `limit` (the largest value `table` holds)."""
    bs = key_size[bk]
    rs = key_size[rk]
    half = bs * rs
    size = 2 * half
    base = slice_offset[bk * num_keys + rk]
    boff = key_offset[bk]
    roff = key_offset[rk]
    state = np.zeros(size, np.uint8)  # 1 decided
    cnt = np.zeros(size, np.int32)
    pend = np.full(size, INF, np.int32)
    lossc = np.zeros(size, np.int32)
    hasdraw = np.zeros(size, np.uint8)
    code = np.zeros(size, np.uint16)
    nbuckets = MAX_REMOTENESS + 2
    head = np.full(nbuckets, -1, np.int64)
    cap = 2 * size + 16
    ev_pos = np.empty(cap, np.int64)
    ev_next = np.empty(cap, np.int64)
    ev_kind = np.empty(cap, np.uint8)  # 0 win, 1 loss, 2 terminal (code already set)
    n_ev = 0
    top = 0
    for p in range(size):
        side = p // half
        rest = p - side * half
        ib = rest // rs
        ir = rest - ib * rs
        gb = boff + ib
        gr = roff + ir
        mb = blue_mask[gb]
        mr = red_mask[gr]
        if mb & mr:
            state[p] = 1
            code[p] = INVALID
            continue
        mine = mb if side == 0 else mr
        theirs = mr if side == 0 else mb
        term = -1  # 0 win, 1 loss for the side to move
        if theirs == 0:
            term = 0 if misere else 1
        elif mine == 0:
            term = 1 if misere else 0
        else:
            legal = 0
            winc = INF
            lc = 0
            hd = 0
            c = 0
            if side == 0:
                for j in range(b_kind.shape[1]):
                    kind = b_kind[gb, j]
                    if kind < 0:
                        break
                    d = b_dest[gb, j]
                    if d >= 0 and (mr >> d) & 1:
                        continue
                    legal += 1
                    if kind == 0:
                        c += 1
                        continue
                    g2 = b_child[gb, j]
                    k2 = key_of[g2]
                    s2 = key_size[k2]
                    q = slice_offset[k2 * num_keys + rk] + s2 * rs + (g2 - key_offset[k2]) * rs + ir
                    cc = table[q]
                    if cc == INVALID:
                        return -1
                    if cc == DRAW:
                        hd = 1
                    elif cc & 1:
                        winc = min(winc, (cc - 3) // 2 + 1)
                    else:
                        lc = max(lc, (cc - 2) // 2 + 1)
            else:
                for j in range(r_kind.shape[1]):
                    kind = r_kind[gr, j]
                    if kind < 0:
                        break
                    d = r_dest[gr, j]
                    if d >= 0 and (mb >> d) & 1:
                        continue
                    legal += 1
                    if kind == 0:
                        c += 1
                        continue
                    g2 = r_child[gr, j]
                    k2 = key_of[g2]
                    s2 = key_size[k2]
                    q = slice_offset[bk * num_keys + k2] + (g2 - key_offset[k2]) + ib * s2
                    cc = table[q]
                    if cc == INVALID:
                        return -1
                    if cc == DRAW:
                        hd = 1
                    elif cc & 1:
                        winc = min(winc, (cc - 3) // 2 + 1)
                    else:
                        lc = max(lc, (cc - 2) // 2 + 1)
            if legal == 0:
                term = 0 if blocked_wins else 1
            else:
                cnt[p] = c
                lossc[p] = lc
                hasdraw[p] = hd
                if winc < INF:
                    pend[p] = winc
                    n_ev = _push(head, ev_pos, ev_next, ev_kind, n_ev, winc, p, 0)
                    top = max(top, winc)
                elif c == 0 and hd == 0:
                    n_ev = _push(head, ev_pos, ev_next, ev_kind, n_ev, lc, p, 1)
                    top = max(top, lc)
        if term >= 0:
            state[p] = 1
            code[p] = 2 + term
            n_ev = _push(head, ev_pos, ev_next, ev_kind, n_ev, 0, p, 2)
    r = 0
    maxrem = 0
    while r <= top:
        e = head[r]
        while e >= 0:
            p = ev_pos[e]
            kind = ev_kind[e]
            e = ev_next[e]
            if kind != 2:
                if state[p]:
                    continue
                state[p] = 1
                code[p] = 2 + 2 * r + kind
            maxrem = max(maxrem, r)
            is_loss = code[p] & 1
            side = p // half
            rest = p - side * half
            ib = rest // rs
            ir = rest - ib * rs
            occ = blue_mask[boff + ib] | red_mask[roff + ir]
            mover = 1 - side
            if mover == 0:
                gb = boff + ib
                for j in range(b_un_src.shape[1]):
                    src = b_un_src[gb, j]
                    if src < 0:
                        break
                    if (occ >> src) & 1:
                        continue
                    qq = _local_of(0, b_un_parent[gb, j] - boff, ir, bs, rs)
                    if state[qq]:
                        continue
                    if is_loss:
                        if pend[qq] > r + 1:
                            pend[qq] = r + 1
                            n_ev = _push(head, ev_pos, ev_next, ev_kind, n_ev, r + 1, qq, 0)
                            top = max(top, r + 1)
                    else:
                        cnt[qq] -= 1
                        if cnt[qq] == 0 and pend[qq] == INF and hasdraw[qq] == 0:
                            rr = max(r + 1, lossc[qq])
                            n_ev = _push(head, ev_pos, ev_next, ev_kind, n_ev, rr, qq, 1)
                            top = max(top, rr)
            else:
                gr = roff + ir
                for j in range(r_un_src.shape[1]):
                    src = r_un_src[gr, j]
                    if src < 0:
                        break
                    if (occ >> src) & 1:
                        continue
                    qq = _local_of(1, ib, r_un_parent[gr, j] - roff, bs, rs)
                    if state[qq]:
                        continue
                    if is_loss:
                        if pend[qq] > r + 1:
                            pend[qq] = r + 1
                            n_ev = _push(head, ev_pos, ev_next, ev_kind, n_ev, r + 1, qq, 0)
                            top = max(top, r + 1)
                    else:
                        cnt[qq] -= 1
                        if cnt[qq] == 0 and pend[qq] == INF and hasdraw[qq] == 0:
                            rr = max(r + 1, lossc[qq])
                            n_ev = _push(head, ev_pos, ev_next, ev_kind, n_ev, rr, qq, 1)
                            top = max(top, rr)
            if top > MAX_REMOTENESS:
                return -2
        r += 1
    for p in range(size):
        if state[p] == 0:
            code[p] = DRAW
        if code[p] > limit:
            return -2
    for p in range(size):
        table[base + p] = code[p]
    return maxrem


@nb.njit(cache=True)
def mirror_slice(table, bk, rk, num_keys, key_size, slice_offset):  # type: ignore[no-untyped-def]
    """Copy solved slice (bk, rk) to (rk, bk) by the colour swap (transpose, other side)."""
    bs = key_size[bk]
    rs = key_size[rk]
    src = slice_offset[bk * num_keys + rk]
    dst = slice_offset[rk * num_keys + bk]
    for s in range(2):
        for ib in range(bs):
            for ir in range(rs):
                table[dst + (1 - s) * bs * rs + ir * bs + ib] = table[
                    src + s * bs * rs + ib * rs + ir
                ]
