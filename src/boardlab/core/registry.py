"""Games declare themselves here as data; front ends look them up by name.

A game is one `GameInfo`: its title, variants (each with its sizes, default size and
colours), the rules factory and every piece a front end needs (levels, perft, the terminal
board, an optional setup stage, forced results, the solver adapter). Games are found through
the `boardlab.games` entry point group, so a separately installed package registers the same
way the built-in games do:

    [project.entry-points."boardlab.games"]
    dodgem = "boardlab.games.dodgem:GAME"

`register(info)` adds one more at run time (a test's toy game, say). The core holds no list
of games and none of their aliases.

Pieces that live above the game's rules (its computer players in `boardlab.ai.<game>`, say)
are named by `Ref("module:attribute")` and imported when first used, exactly as an entry
point is, so the rules layer never imports the layers built on it.
"""

from __future__ import annotations

import pkgutil
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import Any

from boardlab.core.checks import TierChecker
from boardlab.core.errors import BoardLabError, UnknownGameError, UsageError
from boardlab.core.rules import Rules
from boardlab.core.tiers import TierGame

AnyRules = Rules[Any, Any]
ENTRY_POINT_GROUP = "boardlab.games"


@dataclass(frozen=True)
class Ref:
    """A callable named by 'module:attribute', imported on first call (as an entry point is).

    An import error is not hidden: a declared piece that cannot be imported is a bug."""

    target: str

    def load(self) -> Callable[..., Any]:
        """The object named by `target`."""
        obj: Callable[..., Any] = pkgutil.resolve_name(self.target)
        return obj

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.load()(*args, **kwargs)


@dataclass(frozen=True)
class Colour:
    """One side's colour: its name (also the CLI option --NAME) and its board letter."""

    name: str
    letter: str


@dataclass(frozen=True)
class VariantInfo:
    """A named variant: the board sizes it is played on, its default size and its colours.

    `colours[0]` is the first player, who moves first from the standard start (a setup
    stage may hand the first move to either side). `published_size` names the size of the
    published game where the variant has one."""

    name: str
    sizes: tuple[int, ...]
    default_size: int
    colours: tuple[Colour, Colour]
    summary: str = ""
    published_size: int | None = None

    def __post_init__(self) -> None:
        if self.default_size not in self.sizes:
            raise ValueError(f"{self.name}: default size {self.default_size} not in its sizes")

    @property
    def size_range(self) -> tuple[int, int]:
        """Smallest and largest size."""
        return min(self.sizes), max(self.sizes)

    @property
    def player_names(self) -> tuple[str, str]:
        """The colour names, first player's first."""
        return self.colours[0].name, self.colours[1].name

    @property
    def letters(self) -> str:
        """The colour letters, first player's first."""
        return self.colours[0].letter + self.colours[1].letter

    def size_span(self, dash: str = "-") -> str:
        """The sizes in short: '3-8' (or '3 to 8' with dash=' to '), or a list."""
        lo, hi = self.size_range
        if list(self.sizes) == list(range(lo, hi + 1)):
            return f"{lo}{dash}{hi}" if lo != hi else str(lo)
        return ", ".join(str(n) for n in self.sizes)

    def sizes_text(self) -> str:
        """The sizes for a help text, e.g. '3-8, default 4', or for a variant with a
        published size '6×6 is the published game; 3-8 supported, default 6'."""
        span = self.size_span()
        if self.published_size is not None:
            n = self.published_size
            return f"{n}×{n} is the published game; {span} supported, default {self.default_size}"
        return f"{span}, default {self.default_size}"


@dataclass(frozen=True)
class SetupStage:
    """A stage before the first move, such as Dot Dash's pie (one side places a setup, the
    other chooses a colour; the setup's side to move starts).

    Each function takes the game's own rules and position types (hence the loose types).

    - `dialogue(rules, ask, say, computer, computer_role)` runs it through callables and
      returns an object with `position` and `chooser_colour`; `computer` answers requests
      "place" (with setup text) and "choose <setup text>" (with a colour), or is None when
      both roles are human;
    - `parse(rules, text)` reads and checks setup text into the position it starts;
    - `describe(position)` writes a setup position as setup text;
    - `parse_choice(text)` reads a chosen colour (its player index);
    - `agent(rules, rng)` makes the computer's side of the dialogue;
    - `random_setup(rules, rng)` draws a setup, for leagues that start from varied setups.
    """

    name: str
    summary: str
    dialogue: Callable[..., Any]
    parse: Callable[..., Any]
    describe: Callable[[Any], str]
    parse_choice: Callable[[str], int]
    agent: Callable[..., Callable[[str], str]]
    random_setup: Callable[..., Any]


@dataclass(frozen=True)
class WarmUp:
    """What a server warms at start-up for a game: each of `levels` plays one move on the
    default variant at `size` (loading compiled kernels and filling the player pool), and
    the default variant's tables at `table_sizes` are opened or built."""

    size: int
    levels: tuple[str, ...] = ()
    table_sizes: tuple[int, ...] = ()


LevelsFactory = Callable[..., Any]
"""(level 1..level_count, rules, table store or None) -> a player (`boardlab.ai.base.Player`);
the rules and the store are typed by the game's own modules."""


@dataclass(frozen=True)
class GameInfo:
    """Everything a front end needs to know about a game, declared once as data.

    - `make(variant, size)`: the rules of a variant on a board of `size` (checked here
      against the variant's sizes first);
    - `levels(level, rules, tables)`: computer players of levels 1 to `level_count`
      (`tables` is a `boardlab.solver.TableStore` or None);
    - `perft(rules, position, depth)`: leaf count of the move tree;
    - `render(rules, position, last_move)`: the board for the terminal (rich renderable);
    - `notation_help(rules)`: how moves are written, with examples (the terminal's `help`);
    - `setup`: a stage before the first move, or None;
    - `forced(rules, position, history, tables, budget, max_depth)`: a proven result
      (`boardlab.ai.forced`), or None when the game has no finder;
    - `solver_adapter(rules)`: the solver's view of a ruleset (what `boardlab.solver`
      builds and reads complete tables through), or None where the solver does not cover
      these rules; the slot itself is None for a game without tables. The solver is the only
      caller: it imports no game, and a game imports no solver;
    - `table_checker(rules)`: an independent check of those tables (`boardlab.core.checks`,
      rules written apart from the adapter's), or None: `boardlab verify` then re-derives
      the entries through the adapter's own moves;
    - `solver_shape(rules)`: the tiers of rules too big for the solver to run (their
      count, sizes and children, without the means to solve them), for `boardlab solve
      --estimate`; None where the game declares none;
    - `board_facts(rules, position)`: what a front end that draws the board itself needs
      beyond the position text, as a JSON-ready mapping (Dodgem's steps and exit edges, Dot
      Dash's fives and reserves), or None when the game has none to tell;
    - `table_digests`: the digests published for its tables, 'package/file' (lines of
      `boardlab tables digest`), or None;
    - `level_data`: where the levels' settings and ratings live, 'package/file' (a TOML file
      shipped in the package: `boardlab.ai.levels`), or None for a game without levels;
    - `level_player(level, settings, rules, tables)`: the player of a level with the given
      settings (a `boardlab.ai.levels.LevelSettings`), so that a level with changed settings
      can play (the calibrator, `benchmarks/trial.py`);
    - `table_level`: the level that plays from complete tables where they exist (front ends
      say when it falls back on search), or None;
    - `codec(rules)`: the action codec of a ruleset (stable integer ids for moves and piece
      planes: `boardlab.integrations.codec.ActionCodec`), or None for a game without one;
    - `renderer`: the name of the web page's board renderer for the game
      (`web/static/js/boards/<renderer>.js`), or None where the page cannot draw it;
    - `warm_up`: what a server warms for the game at start-up, or None;
    - `estimate(rules, position, history[, nodes])`: what the strongest search says of a
      position within a node budget, the game's own by default (`boardlab.ai.estimate.Estimate`),
      for boards without a table, or None for a game without one.
    """

    name: str
    title: str
    variants: tuple[VariantInfo, ...]
    default_variant: str
    make: Callable[[str, int], AnyRules] = field(repr=False)
    summary: str = ""
    aliases: tuple[str, ...] = ()
    levels: LevelsFactory | None = field(default=None, repr=False)
    level_count: int = 0
    perft: Callable[..., int] | None = field(default=None, repr=False)
    render: Callable[..., Any] | None = field(default=None, repr=False)
    notation_help: Callable[..., str] | None = field(default=None, repr=False)
    setup: SetupStage | None = field(default=None, repr=False)
    forced: Callable[..., Any] | None = field(default=None, repr=False)
    # the tier adapter of a ruleset for the solver (None: the solver cannot solve it)
    solver_adapter: Callable[[AnyRules], TierGame | None] | None = field(default=None, repr=False)
    # the independent checker of those tables (None: verify re-derives through the adapter)
    table_checker: Callable[[AnyRules], TierChecker | None] | None = field(default=None, repr=False)
    board_facts: Callable[..., Mapping[str, Any]] | None = field(default=None, repr=False)
    level_data: str | None = None
    table_digests: str | None = None
    level_player: Callable[..., Any] | None = field(default=None, repr=False)
    table_level: int | None = None
    codec: Callable[[AnyRules], Any] | None = field(default=None, repr=False)
    renderer: str | None = None
    warm_up: WarmUp | None = None
    # the tier shape of rules the solver does not run (estimates only)
    solver_shape: Callable[[AnyRules], Any] | None = field(default=None, repr=False)
    estimate: Callable[..., Any] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.default_variant not in self.variant_names:
            raise ValueError(f"{self.name}: default variant {self.default_variant!r} unknown")

    @property
    def variant_names(self) -> tuple[str, ...]:
        """The variants' names, the default's among them."""
        return tuple(v.name for v in self.variants)

    def variant(self, name: str | None = None) -> VariantInfo:
        """A variant by name (None: the default); raises UnknownGameError."""
        v = name or self.default_variant
        for info in self.variants:
            if info.name == v:
                return info
        known = ", ".join(self.variant_names)
        raise UnknownGameError(f"unknown {self.name} variant {v!r} (known: {known})")

    @property
    def sizes(self) -> tuple[int, int]:
        """Smallest and largest size over every variant."""
        return (
            min(v.size_range[0] for v in self.variants),
            max(v.size_range[1] for v in self.variants),
        )

    @property
    def default_size(self) -> int:
        """The default variant's default size."""
        return self.variant().default_size

    def rules(self, variant: str | None = None, size: int | None = None) -> AnyRules:
        """Rules for a variant and size (defaults where None); UnknownGameError for an
        unknown variant, UsageError for a size the variant is not played on."""
        info = self.variant(variant)
        n = info.default_size if size is None else size
        if n not in info.sizes:
            raise UsageError(
                f"{self.title} board size must be {info.size_span(' to ')} for {info.name}, not {n}"
            )
        return self.make(info.name, n)


_GAMES: dict[str, GameInfo] = {}
_LOAD_LOCK = threading.RLock()  # the first lookups may come from several threads at once
_loaded = False  # every entry point has been read
_loading = False  # reading is under way (a game module may look games up while it loads)


def register(info: GameInfo) -> None:
    """Make a game known by its name (what each `boardlab.games` entry point provides)."""
    with _LOAD_LOCK:
        _GAMES[info.name] = info


def unregister(name: str) -> GameInfo | None:
    """Forget a game registered at run time (a test's toy game); returns it, or None."""
    with _LOAD_LOCK:
        return _GAMES.pop(name, None)


def _load_entry_points() -> None:
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        info = ep.load()
        if callable(info) and not isinstance(info, GameInfo):
            info = info()
        if not isinstance(info, GameInfo):
            raise BoardLabError(f"entry point {ep.name} = {ep.value} is not a GameInfo")
        _GAMES.setdefault(info.name, info)


def games() -> dict[str, GameInfo]:
    """Every registered game by name (entry points are read on the first call)."""
    global _loaded, _loading
    if not _loaded:
        with _LOAD_LOCK:  # other threads wait here until every game is registered
            if not _loaded and not _loading:
                _loading = True
                try:
                    _load_entry_points()
                    _loaded = True
                finally:
                    _loading = False
    return dict(_GAMES)


def _key(name: str) -> str:
    return "".join(name.split()).lower().replace("-", "").replace("_", "")


def get_game(name: str) -> GameInfo:
    """The game registered as `name` (or one of its declared aliases; case, spaces, '-' and
    '_' do not matter); raises UnknownGameError."""
    known = games()
    key = _key(name)
    for info in known.values():
        if key == _key(info.name) or key in (_key(a) for a in info.aliases):
            return info
    if not known:
        raise UnknownGameError(
            "no games are registered: reinstall BoardLab (pip install -e .) so that its "
            f"{ENTRY_POINT_GROUP!r} entry points exist"
        )
    raise UnknownGameError(f"unknown game {name!r} (known: {', '.join(sorted(known))})")


def make_rules(game: str, variant: str | None = None, size: int | None = None) -> AnyRules:
    """Rules for a game, variant and size by name; the usual entry point for front ends."""
    return get_game(game).rules(variant, size)
