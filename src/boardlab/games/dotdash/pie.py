"""The pie setup as a dialogue: the placer puts down three stones, the chooser picks a colour.

`pie_setup` talks through three callables so a terminal, a test or a computer can take part:

- `ask(prompt) -> str` reads a line from the human;
- `say(text)` shows a line to the human;
- `computer(request) -> str` answers for the computer, or None when both roles are human.
  It receives `"place"` and answers with setup text (`setup R:G7 B:G8,H7`), or receives
  `"choose <setup text>"` and answers `r` or `b`. `computer_role` says which role it plays.
  (`boardlab.ai.dotdash.players.pie_agent` makes such a callable.)
- Instead of a callable, `pie_setup` also takes the sides list of `boardlab play` (one entry
  per colour, `human` or a computer level). Colours are then fixed beforehand, so there is
  nothing to choose: two humans still run the dialogue, and a game with a computer starts
  from the fixed setup of `rules.start()`, as the rules allow for play against the computer.

Whoever holds the single stone moves first, so the position returned has that side to move.
`run_pie` also reports the colour the chooser took, which a front end needs to seat players.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from boardlab.core.errors import BoardLabError, NotationError
from boardlab.games.dotdash.notation import LETTERS, DotDashPosition, parse_setup
from boardlab.games.dotdash.rules import DotDashRules

Role = Literal["placer", "chooser"]
MAX_TRIES = 20


@dataclass(frozen=True, slots=True)
class PieResult:
    """The position to play from and the colour (0 red, 1 blue) the chooser took."""

    position: DotDashPosition
    chooser_colour: int


def pie_position(rules: DotDashRules, text: str) -> DotDashPosition:
    """Read a pie setup: three stones on distinct points, one of one colour and two of the
    other; the single stone's colour moves first. Raises NotationError."""
    body = text.strip()
    if not body.lower().startswith("setup"):
        body = "setup " + body
    pos = parse_setup(body, rules.size)
    counts = (pos.count(0), pos.count(1))
    if sorted(counts) != [1, 2]:
        raise NotationError(
            "the pie setup has three stones: one of one colour and two of the other"
        )
    single = counts.index(1)
    if pos.to_move != single:
        raise NotationError(f"the single stone ({LETTERS[single]}) moves first")
    return pos


def random_setup(rules: DotDashRules, rng: random.Random) -> DotDashPosition:
    """A random pie setup on the central points (at least 2 points from every edge)."""
    n = rules.size
    w = n + 1
    spots = [r * w + f for r in range(2, n - 2) for f in range(2, n - 2)]
    a, b, c = rng.sample(spots, 3)
    single = rng.randrange(2)
    masks = [0, 0]
    masks[single] = 1 << a
    masks[1 - single] = 1 << b | 1 << c
    return DotDashPosition(n, masks[0], masks[1], single)


def parse_colour(text: str) -> int:
    """`r`/`red` → 0, `b`/`blue` → 1; raises NotationError."""
    t = text.strip().lower()
    if t in ("r", "red"):
        return 0
    if t in ("b", "blue"):
        return 1
    raise NotationError(f"{text.strip()!r} is not a colour (answer r or b)")


def _human(
    ask: Callable[[str], str],
    say: Callable[[str], None],
    prompt: str,
    read: Callable[[str], object],
) -> str:
    for _ in range(MAX_TRIES):
        answer = ask(prompt)
        try:
            read(answer)
        except BoardLabError as exc:
            say(f"  {exc}")
            continue
        return answer
    raise NotationError("too many invalid answers")


def run_pie(
    rules: DotDashRules,
    ask: Callable[[str], str],
    say: Callable[[str], None],
    computer: Callable[[str], str] | None = None,
    computer_role: Role = "chooser",
) -> PieResult:
    """Run the pie dialogue (see the module docstring); an empty placement takes the fixed
    setup of `rules.start()`."""
    default = rules.start().setup_text()

    def read_setup(answer: str) -> DotDashPosition:
        return pie_position(rules, answer if answer.strip() else default)

    if computer is not None and computer_role == "placer":
        position = read_setup(computer("place"))
        say(f"The computer places: {position.setup_text()}")
    else:
        answer = _human(
            ask,
            say,
            f"Place three stones, e.g. {default.removesuffix(' r')} (Enter for that): ",
            read_setup,
        )
        position = read_setup(answer)
    if computer is not None and computer_role == "chooser":
        colour = parse_colour(computer(f"choose {position.setup_text()}"))
        say(f"The computer chooses {rules.player_names[colour]}.")
    else:
        colour = parse_colour(_human(ask, say, "Choose a colour (r or b): ", parse_colour))
    mover = rules.player_names[position.to_move]
    say(f"{mover.capitalize()} holds the single stone and moves first.")
    return PieResult(position, colour)


def pie_setup(
    rules: DotDashRules,
    ask: Callable[[str], str],
    say: Callable[[str], None],
    computer: Callable[[str], str] | Sequence[str] | None = None,
    computer_role: Role = "chooser",
) -> DotDashPosition:
    """The position a pie dialogue ends in (see the module docstring; `run_pie` also gives the
    chooser's colour)."""
    if computer is not None and not callable(computer):
        sides = [str(side).strip().lower() for side in computer]
        if any(side != "human" for side in sides):
            start = rules.start()
            say(f"Fixed setup against the computer: {start.setup_text()}")
            return start
        computer = None  # two humans: the full dialogue, the choice is for the record
    return run_pie(rules, ask, say, computer, computer_role).position
