"""Error types shared by every game, so callers can tell bad text from a bad move."""


class BoardLabError(Exception):
    """Base of every error BoardLab raises on purpose; its message is one line for a user."""


class NotationError(BoardLabError, ValueError):
    """Text that is not well-formed notation for a square, move, position or record."""


class IllegalMoveError(BoardLabError, ValueError):
    """A well-formed move that the rules do not allow in the given position."""


class GameOverError(IllegalMoveError):
    """A move was attempted in a finished game."""


class UsageError(BoardLabError, ValueError):
    """An argument that makes no sense (a bad option value, a size the game is not played on,
    a negative depth, an unknown game); the command line exits with status 2 and one line,
    the web API answers 400."""


class UnknownGameError(UsageError):
    """A game or variant name that is not registered: a usage error like any other, told
    apart only so that callers may list the known names."""


class MissingTableError(BoardLabError, KeyError):
    """A tablebase that is needed is not built, or not usable."""

    def __str__(self) -> str:  # KeyError quotes its argument; a user wants the plain message
        return str(self.args[0]) if self.args else "missing table"


class CorruptTableError(BoardLabError, ValueError):
    """A tablebase file that is truncated, damaged or made for other rules."""
