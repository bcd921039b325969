"""The tier interface: what a game declares so that the tier solver can solve it.

The positions of a game are split into *tiers*: numbered sets of positions such that every
move stays in its tier or leads to a *child* tier, and the child relation has no cycle
(cycles of the game stay inside one tier). The solver orders the tiers so that children come
first, solves each tier by retrograde analysis reading only the tier itself and its solved
children, and writes each one to disk; nothing else about the game is known to it.

Inside a tier a position is a dense *index* `0 <= i < tier_size(t)` (rank/unrank). Indices
that are no position (overlapping pieces, say) are allowed: the game marks them invalid.

Symmetries are declared by the game: `tiers()` lists only the canonical tiers, and every
tier and index the game hands to the solver (children, moves, `locate`) is already mapped to
its canonical representative. A game without symmetries simply lists all its tiers.

The per-position functions are compiled (numba) and take the game's context tuple for the
tier, made once per tier by `tier_context`:

* `primitive(ctx, i) -> int`: `INVALID` (0) for an index that is no position, `UNDECIDED` (1)
  for a position with moves, `WIN` (2) or `LOSS` (3) for a finished position, for the side to
  move.
* `moves(ctx, i, slot, index) -> int`: writes the moves of an undecided position and returns
  their number: `slot[k] == -1` for a move inside the tier (to `index[k]`), else the position of
  the child tier in `child_tiers(t)` and the index in that child tier. A pass is a move.
* `unmoves(ctx, i, index) -> int`: the positions of the same tier with a move to `i`
  (finished or invalid positions may be listed; they are skipped). In-tier moves and
  un-moves must agree in multiplicity: a game whose symmetries act inside a tier lists each
  in-tier move target and each un-move source once (a game without, once per move).

Values are stored for the side to move; remoteness counts plies to the end with best play
(fastest win, slowest loss); draws have none.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy.typing as npt

INVALID, UNDECIDED, WIN, LOSS = 0, 1, 2, 3


@dataclass(frozen=True)
class TierKernel:
    """The compiled per-position functions of a game (numba dispatchers)."""

    primitive: Callable[..., int]
    moves: Callable[..., int]
    unmoves: Callable[..., int]
    max_moves: int  # most moves (and un-moves) one position can have
    # optional: the game's own compiled entry to the retrograde kernel, faster and cached
    # (see boardlab.core.retrograde_body.solve_tier_body); without it the solver passes the
    # three functions to a generic kernel
    solve: Callable[..., int] | None = None
    # optional, likewise: the game's own entry to `reach_tier_body` (reachability in stats)
    reach: Callable[..., int] | None = None
    # optional: `solve` in its two halves, `first_pass(ctx, size, child_codes, child_base,
    # code, work)` and `propagate(ctx, size, code, work)`, so that the solver can time each
    first_pass: Callable[..., int] | None = None
    propagate: Callable[..., int] | None = None
    # whether `solve` and `first_pass` read the children where they lie: `child_base` then
    # holds their addresses (`boardlab.core.retrograde_children.child_addresses`), and
    # `child_codes` is unused; otherwise the children are copied side by side (`side_by_side`)
    child_addresses: bool = False


@runtime_checkable
class TierGame(Protocol):
    """One ruleset of a game, as the tier solver sees it."""

    @property
    def ruleset_id(self) -> str:
        """A stable key of the ruleset: it names the tables folder."""
        ...

    @property
    def rebuild_command(self) -> str:
        """The command line that builds (or rebuilds) this ruleset's tables."""
        ...

    @property
    def kernel(self) -> TierKernel:
        """The compiled per-position functions."""
        ...

    def tiers(self) -> Sequence[int]:
        """Every canonical tier."""
        ...

    def child_tiers(self, tier: int) -> Sequence[int]:
        """The canonical tiers that moves from `tier` lead to (not `tier` itself), no repeats."""
        ...

    def tier_size(self, tier: int) -> int:
        """Number of indices of a tier (valid or not)."""
        ...

    def orbit_size(self, tier: int) -> int:
        """How many tiers of the game the canonical `tier` stands for (1 without symmetry):
        counts over all positions weigh each stored position by it."""
        ...

    def weighted_counts(
        self,
        tier: int,
        codes: npt.NDArray[Any],
        out: npt.NDArray[Any] | None = None,
        tally: npt.NDArray[Any] | None = None,
    ) -> npt.NDArray[Any]:
        """How many positions of the whole game hold each code among a stored tier's `codes`
        (int64, 65536 long): each entry weighed by the positions it stands for. With `out`,
        added into it (and returned): a pack's counts without an array per tier. `tally`,
        where the solve has it, counts each code of `codes`
        (`boardlab.core.retrograde_work.tally`): a game whose entries of the tier all weigh
        alike may use it instead of the codes."""
        ...

    def tier_name(self, tier: int) -> str:
        """A short readable name of a tier (file names, messages)."""
        ...

    def tier_context(self, tier: int) -> tuple[Any, ...]:
        """The arrays and numbers the compiled functions need for `tier`."""
        ...

    def locate(self, position: Any) -> tuple[int, int]:
        """Rank: the canonical (tier, index) of a position; ValueError if not of this game."""
        ...

    def position(self, tier: int, index: int) -> Any | None:
        """Unrank: the position at (tier, index), or None for an invalid index."""
        ...

    def start(self) -> Any:
        """The start position."""
        ...

    def full_game(self) -> TierGame:
        """The same game with every tier listed and no symmetry applied (reachability)."""
        ...

    def canonical_tier(self, tier: int) -> int:
        """The canonical tier of a tier of `full_game()`."""
        ...

    def unfold(self, tier: int, canonical: npt.NDArray[Any]) -> npt.NDArray[Any]:
        """Codes of a tier of `full_game()` from the codes of its canonical tier."""
        ...

    def spec(self) -> dict[str, Any]:
        """Plain data from which `from_spec` in the game's adapter module rebuilds this object
        in another process (a Dask worker)."""
        ...


def tier_game_from_spec(spec: dict[str, Any]) -> TierGame:
    """Rebuild a tier game from `spec()`: spec['adapter'] names 'module:function'."""
    import importlib

    module, _, func = str(spec["adapter"]).partition(":")
    made: TierGame = getattr(importlib.import_module(module), func)(spec)
    return made
