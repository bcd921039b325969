"""Child tiers read through the solve's shared cache by several threads at once, as a large
solve's threads read them when the cache cannot hold a level: every tier of a built table,
nothing kept, the threads taking the tiers in turn. Prints positions read per second.

    python benchmarks/child_reads.py --size 5 --tables DIR --threads 2
"""

from __future__ import annotations

import argparse
import threading
import time
from pathlib import Path

from _machine import header

from boardlab.core.registry import make_rules
from boardlab.solver.api import open_table, require_game, ruleset_id
from boardlab.solver.childcache import ChildCache
from boardlab.solver.plan import make_plan


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--size", type=int, default=5)
    p.add_argument("--variant", default="classic")
    p.add_argument("--tables", type=Path, required=True, help="tables folder (built)")
    p.add_argument("--threads", type=int, default=2)
    args = p.parse_args()
    rules = make_rules("dodgem", args.variant, args.size)
    game = require_game(rules)
    folder = open_table(rules, args.tables).path
    plan = make_plan(game)
    jobs = [(t, pack.name) for pack in plan.packs for t in pack.tiers]
    cache = ChildCache(0)  # nothing stays: every read decompresses its tier from the file
    read = [0] * args.threads

    def reader(k: int) -> None:
        for tier, pack in jobs[k :: args.threads]:
            read[k] += len(cache.get(folder, tier, pack, "rebuild"))

    print(header(f"child reads, {ruleset_id(rules)}, {args.threads} threads"))
    t0 = time.perf_counter()
    threads = [threading.Thread(target=reader, args=(k,)) for k in range(args.threads)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    seconds = time.perf_counter() - t0
    print(f"{sum(read):,} positions in {seconds:.2f} s: {sum(read) / seconds / 1e6:.0f} M/s")


if __name__ == "__main__":
    main()
