"""Results table; draw offers, clocks with increment and rematch links.

A first-schema database keeps its games; a finished one without a result row shows the
result its moves reach when replayed.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "results",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("winner", sa.Integer, nullable=True),
        sa.Column("reason", sa.String(20), nullable=False),
        sa.Column("tag", sa.String(8), nullable=False),
        sa.Column("finished_at", sa.Float, nullable=False),
    )
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("draw_offer", sa.Integer, nullable=True))
        batch.add_column(sa.Column("clock_ms", sa.Integer, nullable=True))
        batch.add_column(sa.Column("increment_ms", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("turn_started_at", sa.Float, nullable=True))
        batch.add_column(sa.Column("next_game_id", sa.String(32), nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("remaining_ms", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("remaining_ms")
    with op.batch_alter_table("games") as batch:
        for name in ("next_game_id", "turn_started_at", "increment_ms", "clock_ms", "draw_offer"):
            batch.drop_column(name)
    op.drop_table("results")
