"""Export and import of game records through the shared record format (core.records)."""

from __future__ import annotations

from boardlab.core.errors import NotationError
from boardlab.core.records import GameRecord
from boardlab.web import schemas as s
from boardlab.web.service import replay


def _out(record: GameRecord, text: str) -> s.RecordOut:
    return s.RecordOut(
        game=record.game,
        variant=record.variant,
        size=record.size,
        start=record.start,
        moves=list(record.moves),
        text=text,
    )


def export_record(req: s.ExportRequest) -> s.RecordOut:
    """The replayed game as record text (tags, numbered moves, result)."""
    _, session = replay(req)
    record = GameRecord.from_session(session, players=req.players)
    return _out(record, record.to_text())


def import_record(text: str) -> s.RecordOut:
    """Read a record (text or JSON form); every move is checked by replaying it."""
    record = GameRecord.parse(text)
    if len(record.moves) > s.MAX_MOVES:
        raise NotationError(f"the record has {len(record.moves)} moves; at most {s.MAX_MOVES}")
    session = record.to_session()
    canonical = GameRecord.from_session(session, players=record.players)
    canonical.date = record.date
    return _out(canonical, canonical.to_text())
