"""Game records as text: tag lines, then the numbered moves and the result.

[Game "dodgem"]
[Variant "classic"]
[Size "3"]
[Start "B2/B2/1RR b"]      (only when the game did not begin at the standard start)
[Result "1-0"]

1. a2-b2 b1-b2 2. b2-c2 ... 1-0
"""

from __future__ import annotations

import re

from boardlab.core.errors import NotationError
from boardlab.web import schemas as s
from boardlab.web.service import replay

_TAG = re.compile(r'^\[(\w+)\s+"([^"]*)"\]$')
_RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}


def format_record(spec: s.GameSpec) -> str:
    """The record text of a replayed game (raises on bad moves)."""
    rules, session = replay(spec)
    result = session.result.result_tag() if session.result else "*"
    tags = [("Game", rules.game), ("Variant", rules.variant), ("Size", str(rules.size))]
    start = rules.format_position(session.start)
    if session.start != rules.start():
        tags.append(("Start", start))
    tags.append(("Result", result))
    lines = [f'[{k} "{v}"]' for k, v in tags]
    words: list[str] = []
    offset = rules.to_move(session.start)
    for i, move in enumerate(session.moves):
        n = i + offset
        if n % 2 == 0:
            words.append(f"{n // 2 + 1}.")
        elif i == 0:
            words.append(f"{n // 2 + 1}...")
        words.append(rules.format_move(move))
    words.append(result)
    body, line = [], ""
    for w in words:
        if line and len(line) + 1 + len(w) > 78:
            body.append(line)
            line = w
        else:
            line = f"{line} {w}" if line else w
    body.append(line)
    return "\n".join(lines) + "\n\n" + "\n".join(body) + "\n"


def parse_record(text: str) -> s.RecordOut:
    """Read a record; checks every move by replaying it. Raises NotationError/IllegalMoveError."""
    tags: dict[str, str] = {}
    words: list[str] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        m = _TAG.match(line)
        if m:
            tags[m.group(1).lower()] = m.group(2)
            continue
        if line.startswith("["):
            raise NotationError(f"bad tag line {line[:40]!r}")
        line = re.sub(r"\{[^}]*\}", " ", line)  # comments
        words.extend(line.split())
    moves = []
    for w in words:
        if re.fullmatch(r"\d+\.(\.\.)?", w) or w in _RESULTS:
            continue
        moves.append(re.sub(r"^\d+\.(\.\.)?", "", w))
    if not tags and not moves:
        raise NotationError("the record is empty")
    size_text = tags.get("size")
    if size_text is not None and not size_text.isdigit():
        raise NotationError(f"bad Size tag {size_text!r}")
    size = int(size_text) if size_text else None
    if size is not None and not 3 <= size <= 19:
        raise NotationError(f"bad Size tag {size_text!r}")
    if len(moves) > s.MAX_MOVES:
        raise NotationError(f"too many moves (at most {s.MAX_MOVES})")
    spec = s.GameSpec(
        game=tags.get("game", "dodgem"),
        variant=tags.get("variant") or None,
        size=size,
        start=tags.get("start") or None,
        moves=moves,
    )
    rules, session = replay(spec)
    start = rules.format_position(session.start) if session.start != rules.start() else None
    canonical = [rules.format_move(m) for m in session.moves]
    out_spec = s.GameSpec(
        game=rules.game, variant=rules.variant, size=rules.size, start=start, moves=canonical
    )
    return s.RecordOut(
        game=rules.game,
        variant=rules.variant,
        size=rules.size,
        start=start,
        moves=canonical,
        text=format_record(out_spec),
    )
