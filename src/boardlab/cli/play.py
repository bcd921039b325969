"""`boardlab play`: a game in the terminal against the computer or another person."""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from typing import Any

from rich.text import Text

from boardlab.ai.base import Player, default_level, make_player
from boardlab.ai.forced import forced_result
from boardlab.cli.common import (
    UsageError,
    add_game_args,
    add_tables_arg,
    console,
    rules_from_args,
    table_store,
)
from boardlab.core.errors import BoardLabError
from boardlab.core.records import GameRecord, player_label
from boardlab.core.registry import AnyRules, games, get_game
from boardlab.core.session import GameSession

COMMANDS_HELP = "moves, undo, redo, save FILE, help, quit"
COMPUTER = "computer"  # the default computer side: the game's default level


def colours() -> list[str]:
    """Every colour name of every registered game and variant, each once, in order."""
    out: list[str] = []
    for info in games().values():
        for v in info.variants:
            for c in v.colours:
                if c.name not in out:
                    out.append(c.name)
    return out


def sides_help() -> str:
    """Which colour options each game (and variant, where they differ) takes."""
    parts = []
    for info in sorted(games().values(), key=lambda i: i.name):
        seen: dict[tuple[str, str], list[str]] = {}
        for v in info.variants:
            seen.setdefault(v.player_names, []).append(v.name)
        for names, variants in seen.items():
            label = info.title if len(seen) == 1 else f"{info.title} {'/'.join(variants)}"
            parts.append(f"--{names[0]}/--{names[1]} for {label}")
    return ", ".join(parts)


def help_text(rules: AnyRules, position: Any) -> str:
    """How to type a move, with an example legal here, and the commands."""
    legal = rules.legal_moves(position)
    example = f" (e.g. {rules.format_move(legal[0])})" if legal else ""
    return f"Type a move in notation{example}, or a command: {COMMANDS_HELP}."


def full_help(rules: AnyRules, position: Any) -> str:
    """The `help` command: the notation of the game's moves with examples, a move legal
    now, and what each command does."""
    explain = _notation_help(rules)
    legal = rules.legal_moves(position)
    now = (
        f"Legal now, for example: {', '.join(rules.format_move(m) for m in legal[:3])}."
        if legal
        else "No move is legal now."
    )
    commands = (
        "Commands: moves (every legal move), undo / redo (take back or replay a move; "
        "against the computer, back to your turn), save FILE (write the game record), "
        "help, quit."
    )
    return "\n".join(part for part in (explain, now, commands) if part)


def _notation_help(rules: AnyRules) -> str:
    """The game's own words on its notation (its `GameInfo.notation_help`), or nothing."""
    explain = get_game(rules.game).notation_help
    return explain(rules) if explain is not None else ""


def add_side_args(parser: argparse.ArgumentParser, default_first: str, default_second: str) -> None:
    """One --COLOUR option per colour of the registered games, each human/random/a level."""
    for colour in colours():
        parser.add_argument(
            f"--{colour}",
            metavar="WHO",
            default=None,
            help=f"who plays {colour}: human, random or a level of the game",
        )
    parser.set_defaults(default_sides=(default_first, default_second))


def sides_from_args(args: argparse.Namespace, rules: AnyRules) -> list[str]:
    """Who plays each side, by player index, from the colour options of this game."""
    names = rules.player_names
    info = get_game(rules.game)
    sides = [default_level(info) if s == COMPUTER else s for s in args.default_sides]
    for colour in colours():
        value = getattr(args, colour, None)
        if value is None:
            continue
        if colour not in names:
            raise UsageError(
                f"--{colour} is not a side of this game; its sides are {names[0]} and {names[1]}"
            )
        sides[names.index(colour)] = value.strip().lower()
    for side in sides:
        if side != "human":
            make_player(side, rules)  # an unknown name fails here, before the game starts
    return sides


def computer(spec: str, rules: AnyRules, tables: Any = None) -> Player | None:
    """The computer player for a side, or None for a human."""
    if spec == "human":
        return None
    return make_player(spec, rules, tables)


def render(rules: AnyRules, position: Any, last: Any) -> Any:
    """The game's own board drawing (its `GameInfo.render`), or the position's text."""
    draw = get_game(rules.game).render
    if draw is None:
        return Text(rules.format_position(position))
    return draw(rules, position, last)


def register(sub: Any) -> None:
    """Add the play parser."""
    p: argparse.ArgumentParser = sub.add_parser(
        "play",
        help="play a game in the terminal",
        description="Play in the terminal. Moves are typed in notation; commands: moves, undo, "
        f"redo, save FILE, help, quit. Sides are named by colour: {sides_help()}.",
    )
    add_game_args(p)
    add_side_args(p, "human", COMPUTER)
    add_tables_arg(p)
    p.add_argument("--position", help="start from this position (canonical notation)")
    p.add_argument(
        "--setup",
        help="games with a setup stage: a fixed setup instead of the dialogue "
        "(Dot Dash: e.g. 'setup R:G7 B:G8,H7 r')",
    )
    p.add_argument("--load", metavar="FILE", help="continue a saved game record")
    p.add_argument("--seed", type=int, default=None, help="seed of the computer's choices")
    p.add_argument(
        "--join",
        metavar="LINK",
        help="play a shared game (Play a friend) from its invitation link; a watch link "
        "follows the game",
    )
    p.set_defaults(func=run)


def start_session(
    args: argparse.Namespace, rules: AnyRules, sides: list[str], ask: Callable[[str], str]
) -> GameSession[Any, Any]:
    """A new session from --load, --position, --setup, a pie setup, or the standard start."""
    if args.load:
        record = GameRecord.load(args.load)
        return record.to_session()
    if args.position:
        return GameSession(rules, rules.parse_position(args.position))
    if args.setup:
        return GameSession(rules, rules.parse_position(args.setup))
    if get_game(rules.game).setup is not None:
        return GameSession(rules, setup_dialogue(args, rules, sides, ask))
    return GameSession(rules)


def setup_dialogue(
    args: argparse.Namespace, rules: AnyRules, sides: list[str], ask: Callable[[str], str]
) -> Any:
    """The game's setup stage (Dot Dash's pie). Two humans run the whole dialogue; against
    the computer the human places and the computer chooses its colour, so `sides` is
    re-seated to match; two computers start from the standard start."""
    stage = get_game(rules.game).setup
    assert stage is not None

    def say(text: str) -> None:
        console.print(text)

    humans = [s == "human" for s in sides]
    if all(humans):
        return stage.dialogue(rules, ask, say, None, "chooser").position
    if not any(humans):
        return rules.start()
    level = next(s for s in sides if s != "human")
    agent = stage.agent(rules, random.Random(args.seed))
    result = stage.dialogue(rules, ask, say, agent, "chooser")
    sides[:] = ["human", "human"]
    sides[result.chooser_colour] = level
    return result.position


def run(args: argparse.Namespace) -> int:
    """The interactive loop: computers move on their turn, humans type moves or commands."""
    if args.join:
        from boardlab.cli.join import run_join

        return run_join(args.join)
    rules = rules_from_args(args)
    sides = sides_from_args(args, rules)

    def ask(prompt: str) -> str:
        return console.input(prompt)

    try:
        session = start_session(args, rules, sides, ask)
    except EOFError:
        return 0
    if args.load:
        rules = session.rules
    tables = table_store(args)
    players = [computer(s, rules, tables) for s in sides]
    rng = random.Random(args.seed)
    names = rules.player_names
    console.print(
        Text.assemble(
            (get_game(rules.game).title, "bold"),
            f" {rules.variant} {rules.size}×{rules.size}: {names[0]} {player_label(sides[0])}, "
            f"{names[1]} {player_label(sides[1])}. {help_text(rules, session.position)}",
        )
    )
    show = True
    while True:
        last = session.moves[-1] if session.moves else None
        result = session.result
        # the board once per turn: before a human is asked (and at the end), not again
        # after the human's own move when the computer answers at once
        human_turn = result is not None or players[session.to_move] is None
        if show and human_turn:
            console.print(render(rules, session.position, last))
        show = True
        if result is None and players[session.to_move] is not None:
            player = players[session.to_move]
            assert player is not None
            move = player.choose(rules, session.position, session.positions[:-1], rng)
            mover = session.to_move
            session.play(move)
            console.print(
                f"{names[mover]} ({player_label(sides[mover])}) plays {rules.format_move(move)}"
            )
            if sides[mover] == "4":
                label = f"{names[mover]} ({player_label(sides[mover])})"
                announce_forced(session, mover, label, tables)
            continue
        if result is not None:
            console.print(
                Text.assemble((result.describe(names), "bold"), " — undo, save FILE or quit")
            )
        prompt = "> " if result is not None else f"{names[session.to_move]} to move> "
        try:
            line = console.input(prompt).strip()
        except EOFError:
            console.print()
            return 0
        if not line:
            show = False
            continue
        word, _, rest = line.partition(" ")
        command = word.lower()
        try:
            if command in ("quit", "exit", "q"):
                return 0
            if command in ("help", "?"):
                console.print(full_help(rules, session.position), markup=False)
                show = False
            elif command == "moves":
                legal = session.legal_moves()
                console.print(" ".join(rules.format_move(m) for m in legal) or "no moves")
                show = False
            elif command == "undo":
                console.print(took_back(rules, _undo(session, players), "took back"))
            elif command == "redo":
                console.print(took_back(rules, _redo(session, players), "replayed"))
            elif command == "save":
                if not rest.strip():
                    raise UsageError("save needs a file name, e.g. save game.txt")
                who = {names[i]: player_label(sides[i]) for i in (0, 1)}
                path = GameRecord.from_session(session, who).save(rest.strip())
                console.print(f"saved {path}")
                show = False
            else:
                session.play(line)
        except BoardLabError as exc:
            console.print(Text(" ".join(str(exc).split()), style="red"))
            show = False
        except OSError as exc:
            console.print(Text(f"cannot save: {exc.strerror or exc}", style="red"))
            show = False


def announce_forced(session: GameSession[Any, Any], mover: int, who: str, tables: Any) -> None:
    """Say so when level 4's move leaves it a forced win it can see, as the web page does."""
    if session.is_over:
        return
    found = forced_result(session.rules, session.position, tuple(session.positions[:-1]), tables)
    if found is None or found.winner != mover:
        return
    moves = (found.plies + 1) // 2
    console.print(
        Text(
            f"{who} has a forced win in {moves} move{'s' if moves != 1 else ''} "
            f"({found.plies} pl{'ies' if found.plies != 1 else 'y'}).",
            style="bold",
        )
    )


def took_back(rules: AnyRules, moves: list[Any], verb: str) -> str:
    """'took back a2-b2 (and the computer's c1-c2)': what undo or redo did, in play order."""
    if not moves:
        return f"{verb} the resignation"
    said = ", ".join(rules.format_move(m) for m in moves)
    return f"{verb} {said}"


def _undo(session: GameSession[Any, Any], players: list[Player | None]) -> list[Any]:
    """Take back moves until a human is to move again (or nothing is left); the moves taken
    back, first played first (none for a resignation taken back)."""
    taken = [session.undo()]
    while session.can_undo and players[session.to_move] is not None:
        taken.append(session.undo())
    return [m for m in reversed(taken) if m is not None]


def _redo(session: GameSession[Any, Any], players: list[Player | None]) -> list[Any]:
    """Replay moves taken back until a human is to move again (or none are left)."""
    done = [session.redo()]
    while session.can_redo and players[session.to_move] is not None:
        done.append(session.redo())
    return done
