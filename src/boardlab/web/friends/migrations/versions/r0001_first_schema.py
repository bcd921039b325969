"""First schema: matches, games, seats (hashed tokens) and moves.

Revision ID: 0001
Revises:
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "matches",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("game", sa.String(20), nullable=False),
        sa.Column("variant", sa.String(40), nullable=False),
        sa.Column("size", sa.Integer, nullable=False),
        sa.Column("start", sa.String(400), nullable=True),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("ply", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
        sa.Column("creator_addr", sa.String(64), nullable=False),
    )
    op.create_index("ix_games_match_id", "games", ["match_id"])
    op.create_index("ix_games_status", "games", ["status"])
    op.create_index("ix_games_updated_at", "games", ["updated_at"])
    op.create_index("ix_games_creator_addr", "games", ["creator_addr"])
    op.create_table(
        "seats",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("colour", sa.Integer, primary_key=True),
        sa.Column("person", sa.Integer, nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("joined_at", sa.Float, nullable=True),
    )
    op.create_table(
        "moves",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("ply", sa.Integer, nullable=False),
        sa.Column("move", sa.String(24), nullable=False),
        sa.Column("played_at", sa.Float, nullable=False),
        sa.UniqueConstraint("game_id", "ply", name="uq_moves_game_ply"),
    )
    op.create_index("ix_moves_game_id", "moves", ["game_id"])


def downgrade() -> None:
    op.drop_table("moves")
    op.drop_table("seats")
    op.drop_table("games")
    op.drop_table("matches")
