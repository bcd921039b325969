"""Game records that save and load back: JSON, and a readable tagged text form.

The text form is a block of tags followed by numbered moves::

    [Game "dodgem"]
    [Variant "classic"]
    [Size "3"]
    [Blue "human"]
    [Red "level 4"]
    [Date "2026-11-22"]
    [Result "0-1"]
    [Termination "cleared"]

    1. a2-b2 b1-b2 2. a3-b3 ... 0-1

A `Start` tag holds the first position when it is not the standard start. Loading replays the
moves through the rules, so a record that loads is a legal game.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from boardlab.core.errors import BoardLabError, NotationError
from boardlab.core.registry import AnyRules, get_game, make_rules
from boardlab.core.session import GameSession

UNTAGGED_GAME = "dodgem"
"""The game of a record with no Game tag: the format had no such tag while Dodgem was its
only game. (A record without a Variant tag is of its game's declared default variant.)"""


def _default_variant(game: str) -> str:
    return get_game(game).default_variant


_RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
MAX_RECORD_BYTES = 4 << 20  # a record is a few kB; a larger file is not one
_TAG = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')


@dataclass
class GameRecord:
    """A finished or unfinished game as data: the ruleset, the players and the moves."""

    game: str
    variant: str
    size: int
    moves: list[str]
    start: str | None = None  # None: the standard start
    players: dict[str, str] = field(default_factory=dict)  # colour name -> who played it
    date: str = field(default_factory=lambda: dt.date.today().isoformat())
    result: str = "*"
    termination: str | None = None

    # -- conversion to and from sessions ---------------------------------------------------
    @classmethod
    def from_session(
        cls, session: GameSession[Any, Any], players: dict[str, str] | None = None
    ) -> GameRecord:
        """Record the moves and result of a session."""
        rules = session.rules
        start = rules.format_position(session.start)
        outcome = session.result
        return cls(
            game=rules.game,
            variant=rules.variant,
            size=rules.size,
            moves=[rules.format_move(m) for m in session.moves],
            start=None if start == rules.format_position(rules.start()) else start,
            players={colour: player_label(who) for colour, who in (players or {}).items()},
            result=outcome.result_tag() if outcome else "*",
            termination=outcome.reason.value if outcome else None,
        )

    def rules(self) -> AnyRules:
        """The rules the record was played under."""
        return make_rules(self.game, self.variant, self.size)

    def to_session(self) -> GameSession[Any, Any]:
        """Replay the record; raises NotationError naming the first bad move."""
        rules = self.rules()
        start = rules.parse_position(self.start) if self.start else None
        session: GameSession[Any, Any] = GameSession(rules, start)
        for number, text in enumerate(self.moves, 1):
            try:
                session.play(text)
            except BoardLabError as exc:
                raise NotationError(f"move {number} ({text}) of the record: {exc}") from None
        return session

    # -- JSON ------------------------------------------------------------------------------
    def to_json(self) -> str:
        """The record as a JSON document."""
        data: dict[str, Any] = {
            "game": self.game,
            "variant": self.variant,
            "size": self.size,
            "players": self.players,
            "date": self.date,
            "result": self.result,
            "termination": self.termination,
            "start": self.start,
            "moves": self.moves,
        }
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        """Read a JSON record; raises NotationError on anything malformed."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise NotationError(f"not a JSON game record: {exc.msg} at line {exc.lineno}") from None
        except (ValueError, RecursionError):  # a number past Python's digit limit, deep nesting
            raise NotationError(
                "not a JSON game record: too deeply nested or too long a number"
            ) from None
        if not isinstance(data, dict):
            raise NotationError("not a JSON game record: expected an object")
        try:
            moves = data["moves"]
            if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
                raise NotationError("'moves' must be a list of move texts")
            players = data.get("players") or {}
            if not isinstance(players, dict):
                raise NotationError("'players' must be an object")
            game = str(data.get("game") or UNTAGGED_GAME)
            return cls(
                game=game,
                variant=str(data.get("variant") or _default_variant(game)),
                size=_record_size(data["size"]),
                moves=list(moves),
                start=str(data["start"]) if data.get("start") else None,
                players={str(k): str(v) for k, v in players.items()},
                date=str(data.get("date") or ""),
                result=str(data.get("result") or "*"),
                termination=str(data["termination"]) if data.get("termination") else None,
            )
        except (KeyError, TypeError, ValueError, OverflowError) as exc:
            if isinstance(exc, NotationError):
                raise
            raise NotationError(f"not a valid game record: missing or bad field {exc}") from None

    # -- text ------------------------------------------------------------------------------
    def to_text(self) -> str:
        """The record as tags and numbered moves."""
        tags: list[tuple[str, str]] = [
            ("Game", self.game),
            ("Variant", self.variant),
            ("Size", str(self.size)),
        ]
        tags += [(colour.capitalize(), who) for colour, who in self.players.items()]
        tags += [("Date", self.date), ("Result", self.result)]
        if self.termination:
            tags.append(("Termination", self.termination))
        if self.start:
            tags.append(("Start", self.start))
        lines = [f'[{k} "{_escape(v)}"]' for k, v in tags]
        words: list[str] = []
        for i, move in enumerate(self.moves):
            if i % 2 == 0:
                words.append(f"{i // 2 + 1}.")
            words.append(move)
        words.append(self.result)
        body, line = [], ""
        for w in words:
            if line and len(line) + 1 + len(w) > 78:
                body.append(line)
                line = w
            else:
                line = f"{line} {w}" if line else w
        body.append(line)
        return "\n".join([*lines, "", *body]) + "\n"

    @classmethod
    def from_text(cls, text: str) -> GameRecord:
        """Read the tagged text form; raises NotationError on anything malformed."""
        tags: dict[str, str] = {}
        move_words: list[str] = []
        for number, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if not line:
                continue
            if line.startswith("["):
                m = _TAG.match(line)
                if m is None:
                    raise NotationError(f"line {number} of the record is not a tag: {line!r}")
                tags[m.group(1)] = _unescape(m.group(2))
            else:
                move_words += line.split()
        if "Size" not in tags:
            raise NotationError("the record has no Size tag")
        result = "*"
        moves: list[str] = []
        for w in move_words:
            if w in _RESULTS:
                result = w
            elif re.fullmatch(r"\d+\.(\.\.)?", w):
                continue
            else:
                moves.append(w)
        size = _record_size(tags["Size"])
        known = {"Game", "Variant", "Size", "Date", "Result", "Termination", "Start"}
        players = {k.lower(): v for k, v in tags.items() if k not in known}
        return cls(
            game=tags.get("Game", UNTAGGED_GAME),
            variant=tags.get("Variant") or _default_variant(tags.get("Game", UNTAGGED_GAME)),
            size=size,
            moves=moves,
            start=tags.get("Start"),
            players=players,
            date=tags.get("Date", ""),
            result=tags.get("Result", result),
            termination=tags.get("Termination"),
        )

    # -- files -----------------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str) -> GameRecord:
        """Read either form, telling them apart by the first character."""
        return cls.from_json(text) if text.lstrip().startswith("{") else cls.from_text(text)

    def save(self, path: str | Path) -> Path:
        """Write JSON if the file name ends in .json, else the text form."""
        p = Path(path)
        p.write_text(self.to_json() if p.suffix.lower() == ".json" else self.to_text(), "utf-8")
        return p

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """Read a record file; an unreadable file is a NotationError with a one-line reason."""
        from boardlab.core.files import read_regular

        p = Path(path)
        try:
            text = read_regular(p, MAX_RECORD_BYTES).decode("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise NotationError(f"cannot read record {p}: {reason}") from None
        return cls.parse(text)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _record_size(value: object) -> int:
    """A record's board size: a whole number of at most two digits (boards are small), so a
    crafted record with a huge number gets a one-line error, not a traceback."""
    text = str(value).strip()
    if isinstance(value, bool) or not (text.isascii() and text.isdigit() and len(text) <= 2):
        shown = text if len(text) <= 12 else text[:12] + "…"
        raise NotationError(f"bad board size {shown!r} in the record")
    return int(text)


def player_label(who: str) -> str:
    """Who played a colour, as every record writes it: "human", "random", "level 3" (a bare
    level number such as "3" becomes "level 3"; any other name is kept as given)."""
    text = " ".join(who.split())
    return f"level {text}" if text.isdigit() else text
