"""This user's private directories: the snapshot cache and the signing keys.

Both live outside any shared folder, in the user's home (the XDG base directories): a player who
can write the log's folder can neither read nor plant anything there. A directory is used only
while it is provably private: a real directory (not a symbolic link), owned by this user, with no
permission for the group or others. Files in it are read without following links and only when
they are this user's and private too.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat

from tablelog.store.files import create_file, remove_quietly, write_all

__all__ = ["private_dir", "is_private", "is_own", "read_private", "write_private", "temporary_name"]

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def private_dir(variable: str, default: str, create: bool = True) -> str | None:
    """Return ``$variable/tablelog`` (else ``~/default/tablelog``), made with mode 0700 if
    missing (when ``create``), or None when it is missing, not provably private (a link,
    another owner, open to others) or there is no home directory.

    Args:
        variable: The XDG variable (``"XDG_CACHE_HOME"``, ``"XDG_CONFIG_HOME"``).
        default: Its default below the home directory (``".cache"``, ``".config"``).
        create: Make the directory when it is missing.
    """
    base = os.environ.get(variable, "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), default)
    if not os.path.isabs(base):
        return None
    path = os.path.join(base, "tablelog")
    try:
        if create:
            os.makedirs(base, 0o700, exist_ok=True)
            with contextlib.suppress(FileExistsError):
                os.mkdir(path, 0o700)
        info = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode) or not is_private(info):
        return None
    return path


def is_private(info: os.stat_result) -> bool:
    """Return whether a file's status says it is this user's with no group or other access."""
    return not info.st_mode & 0o077 and is_own(info)


def is_own(info: os.stat_result) -> bool:
    """Return whether a file's status says it belongs to this user."""
    getuid = getattr(os, "getuid", None)
    return getuid is None or info.st_uid == getuid()


def read_private(path: str, limit: int) -> bytes | None:
    """Return the bytes of the private regular file at ``path`` (at most ``limit`` + 1 read),
    or None when it is missing, a link, not a regular file, or not this user's alone."""
    try:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or not is_private(info):
            return None
        return os.read(fd, limit + 1)
    except OSError:
        return None
    finally:
        os.close(fd)


def write_private(path: str, data: bytes) -> bool:
    """Create ``path`` holding ``data`` (mode 0600) unless something is there already: written
    to a temporary file first and linked in, so no reader ever sees it half-written and a file
    made first by a racing process is kept. Return whether ``path`` now exists."""
    tmp = temporary_name(path)
    try:
        fd = create_file(tmp, 0o600)
        try:
            write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.link(tmp, path)
    except FileExistsError:
        pass
    except OSError:
        return False
    finally:
        remove_quietly(tmp)
    return True


def temporary_name(path: str) -> str:
    """Return a fresh temporary name beside ``path`` (random: never guessable in advance)."""
    return f"{path}.tmp.{secrets.token_hex(8)}"
