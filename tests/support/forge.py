"""A hostile tool for tests: records appended to a log by hand, framed with correct CRCs and
chain hashes, as any player who can write the shared file can."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tablelog.session import now_utc
from tablelog.store.log import LogFile, frame


def append_forged(log: Path, *records: tuple[str, str, dict[str, Any]]) -> None:
    """Append one command of ``(type, actor, data)`` records after the log's last record, each
    dated now, with the command id of the first (no signature, no lock)."""
    reader = LogFile(str(log))
    reader.scan_all()
    assert reader.end is not None
    first = reader.end.seq + 1
    data, _ = frame(
        [
            {"type": kind, "v": 1, "at": now_utc(), "actor": actor, "data": fields, "cmd": first}
            for kind, actor, fields in records
        ],
        reader.end,
    )
    with open(log, "ab") as f:
        f.write(data)
