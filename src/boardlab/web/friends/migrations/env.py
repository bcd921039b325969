"""Alembic environment of the shared-games database; run by `boardlab.web.friends.db.upgrade`
with an open connection (no alembic.ini: the script folder ships inside the package)."""

from __future__ import annotations

from alembic import context

from boardlab.web.friends.models import Base

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - only the package's own upgrade runs this
    raise RuntimeError("the shared-games migrations run through boardlab.web.friends.db")

context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=True,  # SQLite alters tables by copying them
)
with context.begin_transaction():
    context.run_migrations()
