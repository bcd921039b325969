"""Reading files a user names without being fooled by special ones: a FIFO, a device or a
folder in place of a file is refused by its type before anything reads it (a FIFO would
block the reader for ever, /dev/zero would fill the memory), and a regular file larger than
the caller's limit is refused by its size."""

from __future__ import annotations

import os
import stat
from pathlib import Path

KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class SpecialFileError(OSError):
    """A path that is not a regular file, or one too large to read (its message says which,
    in one line)."""


def kind_of(mode: int) -> str | None:
    """What a file of this mode is, when it is not a regular file (None for one)."""
    if stat.S_ISREG(mode):
        return None
    return next((name for test, name in KINDS if test(mode)), "not a regular file")


def open_regular(path: Path | str, flags: int = os.O_RDONLY) -> int:
    """A descriptor of `path` opened with `flags`, after checking that it is a regular file.
    Opened without blocking (a FIFO with no writer would block even the open), then checked
    by `fstat`, so a file swapped between the check and the open is checked too."""
    p = Path(path)
    fd = os.open(p, flags | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        what = kind_of(os.fstat(fd).st_mode)
        if what is not None:
            raise SpecialFileError(f"it is {what}, not a regular file")
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_regular(path: Path | str, limit: int) -> bytes:
    """The bytes of a regular file of at most `limit` bytes (SpecialFileError otherwise;
    OSError when it cannot be read)."""
    fd = open_regular(path)
    with os.fdopen(fd, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size > limit:
            raise SpecialFileError(f"it is {size:,} bytes, more than the {limit:,} allowed")
        data = f.read(limit + 1)
    if len(data) > limit:  # grew while being read
        raise SpecialFileError(f"it is more than the {limit:,} bytes allowed")
    return data


def check_regular(path: Path | str) -> None:
    """Raise SpecialFileError if `path` exists and is not a regular file (nothing opened)."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return
    what = kind_of(mode)
    if what is not None:
        raise SpecialFileError(f"it is {what}, not a regular file")
