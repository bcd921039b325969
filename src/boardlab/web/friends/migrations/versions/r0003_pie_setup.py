"""The setup stage of a shared game (Dot Dash's pie): which person places the stones and
whether the game still waits for the stones or for the chosen colour.

Games made before this revision have no setup stage (both columns stay empty): they start
from their stored start, as before.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("setup_stage", sa.String(8), nullable=True))
        batch.add_column(sa.Column("placer", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("placer")
        batch.drop_column("setup_stage")
