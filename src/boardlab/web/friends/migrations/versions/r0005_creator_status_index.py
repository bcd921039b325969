"""The games of one address indexed by status too: the bound on a client's open games counts
them at every creation and rematch, and by address alone that count read every game the
address ever made (a club behind one address makes thousands a day).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-27
"""

from __future__ import annotations

from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_games_creator_status", "games", ["creator_addr", "status"])
    op.drop_index("ix_games_creator_addr", "games")


def downgrade() -> None:
    op.create_index("ix_games_creator_addr", "games", ["creator_addr"])
    op.drop_index("ix_games_creator_status", "games")
