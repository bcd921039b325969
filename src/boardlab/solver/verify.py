"""An independent check of a table: every stored result must follow from its children.

Written apart from the solver: it numbers positions by its own reading of the index scheme
in docs/tablebase-format.md (its own key order, combination ranks and mask lookup), takes the
moves from `DodgemRules.step_table` and terminal results from the rules' definition, and
checks every entry in one compiled pass. A random sample is also checked through the plain
Python rules engine (`outcome`, `legal_moves`, `play`). Local agreement of every value with
its remoteness proves the whole table: a win's remoteness falls along a chain to a finished
game, and a position with no such chain cannot be stored as a win or loss.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from math import comb
from typing import Any

import numba as nb
import numpy as np
import numpy.typing as npt

from boardlab.core.outcome import Value
from boardlab.games.dodgem.notation import DodgemPosition
from boardlab.games.dodgem.rules import EXIT, DodgemRules
from boardlab.solver.api import Tablebase, decode


def _keys(n: int) -> list[tuple[int, ...]]:
    """Count vectors with at most n-1 cars, by total then lexicographically."""
    out: list[tuple[int, ...]] = []

    def grow(prefix: tuple[int, ...], left: int) -> None:
        if len(prefix) == n:
            out.append(prefix)
            return
        for c in range(left + 1):
            grow((*prefix, c), left - c)

    grow((), n - 1)
    return sorted(out, key=lambda c: (sum(c), c))


@nb.njit(cache=True)
def _unrank_comb(rank, n, k):  # type: ignore[no-untyped-def]
    """Bit set of the lexicographic `rank`-th k-subset of range(n)."""
    bits = 0
    x = 0
    for i in range(k):
        while True:
            # subsets starting with x at position i
            m = n - 1 - x
            r = k - 1 - i
            c = 1
            for t in range(r):
                c = c * (m - t) // (t + 1)
            if r > m:
                c = 0
            if rank < c:
                break
            rank -= c
            x += 1
        bits |= 1 << x
        x += 1
    return bits


@nb.njit(cache=True)
def _fill_lookup(lookup, counts, koff, n, red):  # type: ignore[no-untyped-def]
    """lookup[mask] = global placement number, for every key and placement."""
    nkeys = counts.shape[0]
    for key in range(nkeys):
        radix = np.ones(n, np.int64)
        total = 1
        for line in range(n - 1, -1, -1):
            radix[line] = total
            k = counts[key, line]
            c = 1
            for t in range(k):
                c = c * (n - t) // (t + 1)
            total *= c
        for idx in range(total):
            mask = 0
            rest = idx
            for line in range(n):
                digit = rest // radix[line]
                rest -= digit * radix[line]
                bits = _unrank_comb(digit, n, counts[key, line])
                for j in range(n):
                    if (bits >> j) & 1:
                        # blue: line is the file, j the rank; red: line is the rank, j the file
                        if red:
                            mask |= 1 << (line * n + j)
                        else:
                            mask |= 1 << (j * n + line)
            lookup[mask] = koff[key] + idx


@nb.njit(cache=True)
def _check(  # type: ignore[no-untyped-def]
    codes,
    n,
    ksize,
    koff,
    keyof,
    soff,
    blue_list,
    red_list,
    blue_lookup,
    red_lookup,
    steps,
    blocked_wins,
    misere,
    bad,
):
    """Check every entry; fills `bad` with failing indices; returns (checked, failures)."""
    nkeys = ksize.shape[0]
    checked = 0
    nbad = 0
    for bk in range(nkeys):
        for rk in range(nkeys):
            bs = ksize[bk]
            rs = ksize[rk]
            base = soff[bk * nkeys + rk]
            for side in range(2):
                for ib in range(bs):
                    mb = blue_list[koff[bk] + ib]
                    for ir in range(rs):
                        mr = red_list[koff[rk] + ir]
                        i = base + side * bs * rs + ib * rs + ir
                        code = codes[i]
                        ok = True
                        if mb & mr:
                            ok = code == 0
                        else:
                            checked += 1
                            mine = mb if side == 0 else mr
                            theirs = mr if side == 0 else mb
                            want = -1
                            if theirs == 0:
                                want = 2 + (0 if misere else 1)
                            elif mine == 0:
                                want = 2 + (1 if misere else 0)
                            else:
                                occ = mb | mr
                                legal = 0
                                minloss = 1 << 30
                                maxwin = -1
                                draw = False
                                for sq in range(n * n):
                                    if not (mine >> sq) & 1:
                                        continue
                                    for j in range(3):
                                        d = steps[side, sq, j]
                                        if d == -2:
                                            continue
                                        if d >= 0 and (occ >> d) & 1:
                                            continue
                                        legal += 1
                                        child = mine & ~(1 << sq)
                                        if d >= 0:
                                            child |= 1 << d
                                        if side == 0:
                                            gb = blue_lookup[child]
                                            gr = koff[rk] + ir
                                        else:
                                            gb = koff[bk] + ib
                                            gr = red_lookup[child]
                                        k1 = keyof[gb]
                                        k2 = keyof[gr]
                                        s1 = ksize[k1]
                                        s2 = ksize[k2]
                                        ci = (
                                            soff[k1 * nkeys + k2]
                                            + (1 - side) * s1 * s2
                                            + (gb - koff[k1]) * s2
                                            + (gr - koff[k2])
                                        )
                                        cc = codes[ci]
                                        if cc == 0:
                                            ok = False
                                        elif cc == 1:
                                            draw = True
                                        elif cc & 1:
                                            minloss = min(minloss, (cc - 3) // 2)
                                        else:
                                            maxwin = max(maxwin, (cc - 2) // 2)
                                if legal == 0:
                                    want = 2 + (0 if blocked_wins else 1)
                                elif minloss < (1 << 30):
                                    want = 2 + 2 * (minloss + 1)
                                elif draw:
                                    want = 1
                                else:
                                    want = 3 + 2 * (maxwin + 1)
                            ok = ok and code == want
                        if not ok:
                            if nbad < bad.shape[0]:
                                bad[nbad] = i
                            nbad += 1
    return checked, nbad


@dataclass
class VerifyReport:
    """What the verifier checked and what it found."""

    entries: int
    positions: int
    sampled: int
    bad_indices: list[int] = field(default_factory=list)
    failures: int = 0
    sample_failures: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when nothing disagreed."""
        return self.failures == 0 and not self.sample_failures


def _step_array(rules: DodgemRules) -> npt.NDArray[np.int64]:
    n = rules.size
    steps = np.full((2, n * n, 3), -2, dtype=np.int64)
    for player in (0, 1):
        for sq, dests in enumerate(rules.step_table[player]):
            for j, d in enumerate(dests):
                steps[player, sq, j] = -1 if d == EXIT else d
    return steps


def verify_table(
    rules: DodgemRules, table: Tablebase, sample: int = 20000, max_report: int = 1000, seed: int = 1
) -> VerifyReport:
    """Check every entry of `table` against its children; and a sample via the rules engine."""
    n = rules.size
    keys = _keys(n)
    counts = np.array(keys, dtype=np.int64)
    ksize = np.array([int(np.prod([comb(n, c) for c in k])) for k in keys], dtype=np.int64)
    koff = np.concatenate(([0], np.cumsum(ksize)[:-1])).astype(np.int64)
    keyof = np.repeat(np.arange(len(keys), dtype=np.int64), ksize)
    sizes = 2 * np.outer(ksize, ksize).ravel()
    soff = np.concatenate(([0], np.cumsum(sizes))).astype(np.int64)
    if int(soff[-1]) != table.file.entries:
        return VerifyReport(table.file.entries, 0, 0, [], 1, ["index space size differs"])
    blue_lookup = np.full(1 << (n * n), -1, dtype=np.int32)
    red_lookup = np.full(1 << (n * n), -1, dtype=np.int32)
    _fill_lookup(blue_lookup, counts, koff, n, False)
    _fill_lookup(red_lookup, counts, koff, n, True)
    total = int(ksize.sum())
    blue_list = np.zeros(total, dtype=np.int64)
    red_list = np.zeros(total, dtype=np.int64)
    masks = np.arange(1 << (n * n), dtype=np.int64)
    sel = blue_lookup >= 0
    blue_list[blue_lookup[sel]] = masks[sel]
    sel = red_lookup >= 0
    red_list[red_lookup[sel]] = masks[sel]
    del masks, sel
    codes = table.file.codes(0, table.file.entries, native=True)
    bad = np.zeros(max_report, dtype=np.int64)
    checked, nbad = _check(
        codes,
        n,
        ksize,
        koff,
        keyof,
        soff,
        blue_list,
        red_list,
        blue_lookup,
        red_lookup,
        _step_array(rules),
        rules.blocked == "wins",
        rules.goal == "misere",
        bad,
    )
    report = VerifyReport(
        entries=len(codes),
        positions=int(checked),
        sampled=0,
        bad_indices=[int(x) for x in bad[: min(int(nbad), max_report)]],
        failures=int(nbad),
    )
    report.sample_failures += _header_counts(table, codes)
    del codes
    sampled, fails = _sample(rules, table, blue_list, red_list, sample, seed)
    report.sampled = sampled
    report.sample_failures += fails
    return report


@nb.njit(cache=True)
def _tally(codes):  # type: ignore[no-untyped-def]
    counts = np.zeros(65536, np.int64)
    for i in range(codes.shape[0]):
        counts[codes[i]] += 1
    return counts


def _header_counts(table: Tablebase, codes: npt.NDArray[Any]) -> list[str]:
    """Disagreements between the header's counts and the stored codes."""
    counts = _tally(codes)
    codes_present = np.flatnonzero(counts[2:])
    found = {
        "positions": int(counts[1:].sum()),
        "win": int(counts[2::2].sum()),
        "loss": int(counts[3::2].sum()),
        "draw": int(counts[1]),
        "max_remoteness": int(codes_present[-1]) // 2 if len(codes_present) else 0,
    }
    return [
        f"header says {k} = {table.header.get(k)}, the entries give {v}"
        for k, v in found.items()
        if table.header.get(k) != v
    ]


def _sample(
    rules: DodgemRules,
    table: Tablebase,
    blue_list: npt.NDArray[np.int64],
    red_list: npt.NDArray[np.int64],
    count: int,
    seed: int,
) -> tuple[int, list[str]]:
    """Check random positions through DodgemRules.outcome/legal_moves/play and probe."""
    rng = random.Random(seed)
    n = rules.size
    fails: list[str] = []
    done = 0
    while done < count:
        mb = int(blue_list[rng.randrange(len(blue_list))])
        mr = int(red_list[rng.randrange(len(red_list))])
        if mb & mr:
            continue
        p = DodgemPosition(n, mb, mr, rng.randrange(2))
        done += 1
        got = table.probe(p)
        out = rules.outcome(p)
        want: tuple[Value, int | None]
        if out is not None:
            want = (out.value_for(p.to_move), 0)
        else:
            kids = [table.probe(rules.play(p, m)) for m in rules.legal_moves(p)]
            losses = [r for v, r in kids if v is Value.LOSS and r is not None]
            wins = [r for v, r in kids if v is Value.WIN and r is not None]
            if losses:
                want = (Value.WIN, 1 + min(losses))
            elif any(v is Value.DRAW for v, _ in kids):
                want = (Value.DRAW, None)
            else:
                want = (Value.LOSS, 1 + max(wins))
        if got != want:
            fails.append(
                f"{p}: stored {got[0].value} {got[1]}, children say {want[0].value} {want[1]}"
            )
    return done, fails


def describe_bad(table: Tablebase, index: int) -> str:
    """One line about a failing entry."""
    pos = table.scheme.position(index)
    code = int(table.file.code(index))
    if pos is None:
        return f"index {index}: invalid entry holds code {code}"
    value: Any = decode(code) if code else ("nothing", None)
    return f"{pos}: stored {getattr(value[0], 'value', value[0])} {value[1]}"
