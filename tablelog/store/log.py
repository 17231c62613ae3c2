"""The names the faces import from the store (``from tablelog.store.log import LogError``):
each lives in the module of its job, and is only re-exported here.

| job | module |
|---|---|
| what goes wrong | :mod:`tablelog.store.errors` |
| POSIX file helpers | :mod:`tablelog.store.files` |
| waiting for another writer | :mod:`tablelog.store.waiting`, :mod:`tablelog.store.lock` |
| an envelope's checks | :mod:`tablelog.store.envelope` |
| the one reader, whole batches | :mod:`tablelog.store.reader` |
| framing, both ways | :mod:`tablelog.store.framing` |
| the file store | :mod:`tablelog.store.logfile`, :mod:`~.filebytes`, :mod:`~.fileappend` |
| mending, salvage | :mod:`tablelog.store.repair` |
"""

from __future__ import annotations

from tablelog.store.errors import (
    LogError,
    LogLocked,
    LogMovedOn,
    LogUnwritable,
    record_error,
    torn_error,
)
from tablelog.store.files import (
    NotRegularFile,
    create_file,
    fsync_dir,
    open_regular,
    remove_quietly,
    write_all,
)
from tablelog.store.framing import frame
from tablelog.store.logfile import LogFile
from tablelog.store.reader import Record, StoredRecord
from tablelog.store.waiting import LOCK_TIMEOUT_S, lock_timeout_s

__all__ = [
    "LogError",
    "LogLocked",
    "LogUnwritable",
    "LogMovedOn",
    "record_error",
    "torn_error",
    "StoredRecord",
    "Record",
    "LogFile",
    "LOCK_TIMEOUT_S",
    "lock_timeout_s",
    "frame",
    "fsync_dir",
    "create_file",
    "write_all",
    "remove_quietly",
    "open_regular",
    "NotRegularFile",
]
