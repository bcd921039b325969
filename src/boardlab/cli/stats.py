"""`boardlab stats`: results over all positions and reachable ones, and a remoteness histogram."""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from rich.table import Table
from rich.text import Text

from boardlab.cli.common import UsageError, console, err_console, print_json
from boardlab.cli.solve import add_table_args, table_for, table_rules

PLOT_TYPES = (".png", ".svg", ".pdf")


def register(sub: Any) -> None:
    """Add the stats parser."""
    p: argparse.ArgumentParser = sub.add_parser(
        "stats",
        help="win/loss/draw counts and remoteness of a solved ruleset",
        description="Count wins, losses and draws (for the side to move) over all positions and "
        "over the positions reachable from the start; show the start's value, the longest "
        "remoteness and a remoteness histogram.",
    )
    add_table_args(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument(
        "--no-reachable",
        action="store_true",
        help="skip the walk over the positions reachable from the start (hours on 6×6)",
    )
    p.add_argument(
        "--scratch",
        type=Path,
        default=None,
        metavar="DIR",
        help="folder for the reachability walk's marks, which lets a stopped walk resume "
        "(default: in memory for boards up to 5×5, else reach/ in the table's folder)",
    )
    p.add_argument(
        "--plot",
        type=Path,
        default=None,
        metavar="FILE",
        help="write a remoteness histogram (PNG or SVG by extension)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Compute and print the statistics."""
    from boardlab.cli.solve import tier_progress
    from boardlab.solver.stats import reach_folder, table_stats

    if args.plot is not None:
        check_plot_path(args.plot)
    rules = table_rules(args)
    table = table_for(args, rules)
    t0 = time.perf_counter()
    if args.no_reachable:
        st = table_stats(rules, table, reachable=False)
    else:
        scratch = args.scratch if args.scratch is not None else reach_folder(table)
        if scratch is not None:
            err_console.print(
                f"reachability marks in {scratch} (a stopped run resumes from there)",
                soft_wrap=True,
            )
        title = f"reachable, {rules.ruleset_id()}"
        with tier_progress(title, "tiers") as (levels, _dashboard):
            st = table_stats(rules, table, folder=scratch, on_progress=levels)
    seconds = time.perf_counter() - t0
    if args.plot is not None:
        plot(st.histogram, st.reachable_histogram, args.plot, rules.ruleset_id())
    if args.json:
        data = st.as_json()
        data["ruleset"] = rules.ruleset_id()
        print_json(data)
        return 0
    grid = Table(title=f"{rules.ruleset_id()} (value for the side to move)")
    for col in ("", "positions", "win", "loss", "draw"):
        grid.add_column(col, justify="right")
    rows = [("all", st.all)] + ([("reachable", st.reachable)] if st.reachable else [])
    for name, d in rows:
        grid.add_row(
            name, f"{d['positions']:,}", f"{d['win']:,}", f"{d['loss']:,}", f"{d['draw']:,}"
        )
    console.print(grid)
    rem = st.start["remoteness"]
    tail = "" if rem is None else f" in {rem} plies"
    console.print(f"start {st.start['position']}: {st.start['value']}{tail}")
    console.print(f"longest win or loss: {st.max_remoteness} plies")
    hist = Table(title="remoteness (all positions)")
    hist.add_column("plies", justify="right")
    hist.add_column("win", justify="right")
    hist.add_column("loss", justify="right")
    for r, (w, lo) in enumerate(zip(st.histogram["win"], st.histogram["loss"], strict=True)):
        if w or lo:
            hist.add_row(str(r), f"{w:,}", f"{lo:,}")
    console.print(hist)
    if args.plot is not None:
        console.print(f"histogram written to {args.plot}")
    console.print(Text(f"{seconds:.1f} s", style="dim"))
    return 0


def check_plot_path(path: Path) -> None:
    """UsageError unless `path` names a PNG, SVG or PDF file (not a folder)."""
    if path.is_dir():
        raise UsageError(
            f"--plot {path.name}: is a folder; give a file name ending in .png or .svg"
        )
    if path.suffix.lower() not in PLOT_TYPES:
        raise UsageError(f"--plot {path.name}: the file name must end in {', '.join(PLOT_TYPES)}")


def plot(
    hist: dict[str, list[int]], reach: dict[str, list[int]] | None, path: Path, title: str
) -> None:
    """Draw win and loss counts per remoteness, all positions and reachable ones."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = [(hist, "all positions")] + ([(reach, "reachable")] if reach else [])
    fig, axes = plt.subplots(1, len(panels), figsize=(5.5 * len(panels), 4), squeeze=False)
    for ax, (data, name) in zip(axes[0], panels, strict=True):
        xs = list(range(len(data["win"])))
        ax.bar([x - 0.2 for x in xs], data["win"], width=0.4, label="win")
        ax.bar([x + 0.2 for x in xs], data["loss"], width=0.4, label="loss")
        ax.set_title(name)
        ax.set_xlabel("remoteness (plies)")
        ax.set_yscale("log")
        ax.legend()
    axes[0][0].set_ylabel("positions")
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
