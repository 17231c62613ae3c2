"""Hostile and broken log files: a clear error with the byte offset, never a traceback, never
unbounded memory; every single-byte flip found by verify; repair never cuts mid-file damage."""

from __future__ import annotations

import datetime as dt
import json
import os
import random
import resource
import struct
import subprocess
import sys
import zlib
from collections.abc import Callable
from pathlib import Path

import attrs
import msgpack
import pytest
from click.testing import Result

from tablelog import systems
from tablelog.session import now_utc
from tablelog.store.format import MAGIC, MAX_RECORD_BYTES, RECORD_PREFIX, Position, chain_hash
from tablelog.store.log import LogFile, frame
from tests.support import toy
from tests.support.cli import invoke, ok

toy.install()

TOYCLI = str(Path(__file__).resolve().parent / "toycli.py")


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def sound_log(tmp_path: Path) -> Path:
    """A small valid toy log: 3 counters' worth of events, a note and an undo."""
    log = tmp_path / "s.tlog"
    ok(log, "init", "--system", "toy", "--seed", "3")
    ok(log, "toy", "add", "a", "9")
    ok(log, "toy", "spend", "a", "2")
    ok(log, "note", "a ruling")
    ok(log, "toy", "roll", "a")
    ok(log, "undo")
    return log


def end_of(log: Path) -> Position:
    """The position after the last record."""
    reader = LogFile(str(log))
    reader.scan_all()
    assert reader.end is not None
    return reader.end


def raw_record(payload: bytes) -> bytes:
    """A record frame with a correct CRC around any payload bytes."""
    return RECORD_PREFIX.pack(len(payload), zlib.crc32(payload)) + payload


def append_bytes(log: Path, data: bytes) -> int:
    """Append raw bytes; return the offset they start at."""
    offset = log.stat().st_size
    with open(log, "ab") as f:
        f.write(data)
    return offset


def assert_clear_error(result: Result, status: int, fragment: str) -> None:
    """The command failed with ``status``, one ``error:`` line naming ``fragment``, no traceback."""
    assert result.exit_code == status, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    assert result.stderr.startswith("error: ") and fragment in result.stderr, result.stderr
    assert "Traceback" not in result.output


def envelope(kind: str, data: dict, **extra: object) -> dict:
    """An envelope as the session writes it, dated now (after every record before it, and not
    past the horizon verify allows: a day after this clock)."""
    return {"type": kind, "v": 1, "at": now_utc(), "actor": "mallory", "data": data, **extra}


def craft(name: str, log: Path) -> tuple[int, str]:
    """Damage ``log`` in the named way; return the bad record's offset and the expected text."""
    end = end_of(log)
    if name == "huge length prefix":
        at = append_bytes(log, b"\xff\xff\xff\xff\0\0\0\0" + b"x" * 64)
        return at, f"record #6 at byte {at}: record length 4294967295 is over the limit"
    if name == "deeply nested msgpack":
        at = append_bytes(log, raw_record(b"\x91" * 200_000 + b"\xc0"))
        return at, f"record #6 at byte {at}: malformed record payload"
    if name == "oversized msgpack array":
        at = append_bytes(log, raw_record(b"\xdd\xff\xff\xff\xff" + b"\xc0" * 100))
        return at, f"record #6 at byte {at}: malformed record payload"
    if name == "oversized msgpack string":
        at = append_bytes(log, raw_record(b"\xdb\x7f\xff\xff\xff" + b"a" * 100))
        return at, f"record #6 at byte {at}: malformed record payload"
    if name == "unknown type":
        data, _ = frame([envelope("alien.Probe", {"x": 1})], end)
        at = append_bytes(log, data)
        return at, f"record #6 at byte {at}: unknown event type 'alien.Probe'"
    if name == "data that does not fit":
        data, _ = frame([envelope("toy.CounterAdded", {"name": "b", "points": "many"})], end)
        at = append_bytes(log, data)
        return at, f"record #6 at byte {at}: toy.CounterAdded: data does not fit the event"
    if name == "wrong seq":
        data, _ = frame(
            [envelope("core.Noted", {"text": "x"})],
            Position(end.seq + 6, end.prev, end.span),
        )
        at = append_bytes(log, data)
        return at, f"corrupt record #6 at byte {at}: seq 12 where 6 was expected"
    if name == "marker without a target":
        data, _ = frame([envelope("core.Undone", {"reason": "x"})], end)
        at = append_bytes(log, data)
        return at, f"record #6 at byte {at}: "  # "marker without a target" or "does not fit"
    raise AssertionError(name)


CRAFTED = [
    "huge length prefix",
    "deeply nested msgpack",
    "oversized msgpack array",
    "oversized msgpack string",
    "unknown type",
    "data that does not fit",
    "wrong seq",
    "marker without a target",
]


@pytest.mark.parametrize("name", CRAFTED)
def test_crafted_record_is_a_clear_error(tmp_path: Path, name: str) -> None:
    """Reads and appends exit 3, verify exits 1, each naming the record's byte offset."""
    log = sound_log(tmp_path)
    _, fragment = craft(name, log)
    before = log.read_bytes()
    for args in (("state",), ("log",), ("history", "a"), ("note", "more"), ("undo",)):
        assert_clear_error(invoke(log, *args), 3, fragment)
    assert_clear_error(invoke(log, "verify"), 1, fragment)
    assert_clear_error(invoke(log, "verify", "--repair"), 1, fragment)
    assert log.read_bytes() == before


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (768 << 20, 768 << 20))


@pytest.mark.parametrize("name", CRAFTED[:4])
def test_crafted_record_needs_bounded_memory(tmp_path: Path, name: str) -> None:
    """Under a 768 MB address-space limit, a hostile record still gets the clear exit 3."""
    log = sound_log(tmp_path)
    _, fragment = craft(name, log)
    done = subprocess.run(
        [sys.executable, TOYCLI, "--log", str(log), "state"],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=_limit_memory,
    )
    assert (done.returncode, done.stdout) == (3, "")
    assert done.stderr.startswith("error: ") and fragment in done.stderr


def test_wrong_magic(tmp_path: Path) -> None:
    """A file that is not a tablelog file: exit 3 for every command, verify included."""
    log = tmp_path / "s.tlog"
    log.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(100))
    for args in (("state",), ("note", "x"), ("verify",), ("verify", "--repair")):
        assert_clear_error(
            invoke(log, *args), 3, f"{log}: not a tablelog file (wrong magic bytes) at byte 0"
        )


def test_unsupported_format_version(tmp_path: Path) -> None:
    """A header from a future format version is refused at byte 8."""
    log = sound_log(tmp_path)
    data = bytearray(log.read_bytes())
    data[9] = 9
    log.write_bytes(bytes(data))
    assert_clear_error(invoke(log, "state"), 3, "unsupported format version 9 at byte 8")


def test_edited_and_rechecksummed_record_breaks_the_chain(tmp_path: Path) -> None:
    """A record edited with its CRC recomputed is caught by verify at the next record's hash;
    everyday reads check each record's CRC, not the chain (docs/RELIABILITY.md), and salvage
    keeps the records before the break."""
    log = sound_log(tmp_path)
    records = LogFile(str(log)).scan_all()
    data = log.read_bytes()
    start, end = records[2].offset, records[3].offset  # the note, #3
    payload = data[start + 8 : end].replace(b"a ruling", b"a RULING")
    log.write_bytes(data[:start] + raw_record(payload) + data[end:])
    fragment = f"corrupt record #4 at byte {records[3].offset}: hash chain broken"
    assert_clear_error(invoke(log, "verify"), 1, fragment)
    assert "a RULING" in invoke(log, "log").output  # the CRC is right: reads take the record
    out = tmp_path / "salvaged.tlog"
    assert ok(log, "verify", "--salvage", str(out)).startswith("salvaged: 3 records")
    assert [r.seq for r in LogFile(str(out)).scan_all(chain=True)] == [1, 2, 3]


def test_hand_edited_payload_fails_its_checksum(tmp_path: Path) -> None:
    """A payload edited in place (same length, old CRC) is a checksum mismatch at its offset."""
    log = sound_log(tmp_path)
    records = LogFile(str(log)).scan_all()
    log.write_bytes(log.read_bytes().replace(b"a ruling", b"a rulinG"))
    fragment = f"corrupt record #3 at byte {records[2].offset}: record checksum mismatch"
    assert_clear_error(invoke(log, "note", "x"), 3, fragment)
    result = invoke(log, "verify")
    assert_clear_error(result, 1, fragment)
    assert result.stderr.endswith(
        f"keep the valid prefix with: tablelog --log {log} verify --salvage OUT\n"
    )


def test_repair_refuses_mid_file_corruption_and_salvage_keeps_the_prefix(tmp_path: Path) -> None:
    """verify --repair never cuts mid-file damage; --salvage OUT writes the valid prefix."""
    log = sound_log(tmp_path)
    records = LogFile(str(log)).scan_all()
    data = bytearray(log.read_bytes())
    data[records[3].offset + 12] ^= 0x20
    log.write_bytes(bytes(data))
    result = invoke(log, "verify", "--repair")
    assert_clear_error(result, 1, f"corrupt record #4 at byte {records[3].offset}")
    assert "not repaired: only a torn tail is ever cut" in result.stderr
    assert log.read_bytes() == bytes(data)
    out = tmp_path / "saved.tlog"
    assert ok(log, "verify", "--salvage", str(out)) == (
        f"salvaged: 3 records ({records[3].offset} bytes) into {out}; first bad record at byte "
        f"{records[3].offset} (whole commands only: records of its command before it are left "
        "out too)\n"
    )
    assert ok(out, "verify").startswith(
        f"ok: {out}: 3 records, hash chain intact, replays (toy)\nhead: 3:"
    )
    assert_clear_error(invoke(log, "verify", "--salvage", str(out)), 3, "cannot create")


def test_every_single_byte_flip_is_found_by_verify(tmp_path: Path) -> None:
    """200 random single-byte flips: verify fails on each (header: exit 3, records: exit 1),
    and verify --repair never changes the damaged file."""
    log = sound_log(tmp_path)
    ok(log, "run", str(_batch_script(tmp_path)))  # the log also holds a multi-record batch
    original = log.read_bytes()
    reader = LogFile(str(log))
    reader.open()
    assert reader.start is not None
    header_end = reader.start.span[1]  # type: ignore[index]
    rng = random.Random(1130)
    for _ in range(200):
        where, mask = rng.randrange(len(original)), rng.randrange(1, 256)
        damaged = bytearray(original)
        damaged[where] ^= mask
        log.write_bytes(bytes(damaged))
        result = invoke(log, "verify")
        assert result.exit_code == (3 if where < header_end else 1), (where, result.output)
        assert isinstance(result.exception, SystemExit), (where, result.exception)
        assert "at byte" in result.stderr, (where, result.stderr)
        if where >= header_end:
            assert invoke(log, "verify", "--repair").exit_code == 1, where
            assert log.read_bytes() == bytes(damaged), where
    assert not list(tmp_path.glob("*.bak*"))


def _batch_script(tmp_path: Path) -> Path:
    script = tmp_path / "batch.txt"
    script.write_text("toy add b 4\ntoy spend b 1\nnote 'in one batch'\n")
    return script


def test_batch_script_is_one_batch(tmp_path: Path) -> None:
    """An atomic run is written as one batch: its records carry the remaining count."""
    log = sound_log(tmp_path)
    ok(log, "run", "--atomic", str(_batch_script(tmp_path)))
    data = log.read_bytes()
    tail = LogFile(str(log)).scan_all()[-3:]
    assert [r.seq for r in tail] == [6, 7, 8]
    assert [b"\xa4more" in data[r.offset : r.offset + 200] for r in tail] == [True, True, False]
    assert os.path.getsize(log) == len(data)


def test_record_at_the_size_limit_is_read(tmp_path: Path) -> None:
    """A note close to MAX_RECORD_BYTES is written and read back whole."""
    log = sound_log(tmp_path)
    text = "n" * (MAX_RECORD_BYTES - 300)
    ok(log, "note", text)
    assert LogFile(str(log)).scan_all()[-1].data == {"text": text}


def rewritten(log: Path, edit: Callable[[list[dict]], None], header: bytes | None = None) -> Path:
    """Rewrite ``log`` with its envelopes changed by ``edit``, every CRC and hash recomputed (a
    careful forger's file); ``header`` replaces the header bytes."""
    reader = LogFile(str(log))
    records = reader.scan_all()
    head = log.read_bytes()[: records[0].offset]
    envelopes = [
        {
            "type": r.type,
            "v": r.v,
            "at": r.at,
            "actor": r.actor,
            "data": r.data,
            **({"cmd": r.cmd} if r.cmd is not None else {}),
            **({"req": r.req} if r.req is not None else {}),
        }
        for r in records
    ]
    edit(envelopes)
    head = header if header is not None else head
    pos, chunks = Position(0, chain_hash(head), (len(head), len(head))), []
    for env in envelopes:
        data, pos = frame([env], pos)
        chunks.append(data)
    log.write_bytes(head + b"".join(chunks))
    return log


def raw_header(fields: dict) -> bytes:
    """Header bytes around any field map, with a correct CRC."""
    body = msgpack.packb(fields, use_bin_type=True)
    return MAGIC + struct.pack(">HI", 1, len(body)) + body + struct.pack(">I", zlib.crc32(body))


def test_header_of_an_unknown_system_is_exit_3_for_verify_too(tmp_path: Path) -> None:
    """A header naming a system this program does not know: one error line, exit 3, everywhere."""
    log = sound_log(tmp_path)
    fields = attrs.asdict(LogFile(str(log)).open())
    rewritten(log, lambda envs: None, raw_header({**fields, "system": "nosuch"}))
    for command in (("state",), ("verify",), ("note", "x")):
        assert_clear_error(invoke(log, *command), 3, "unknown system 'nosuch'")


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"title": None}, "malformed header (keys"),
        ({"seed": -5}, "malformed header (seed -5 is not in 0 .. 2**63 - 1)"),
        ({"seed": 2**64 - 1}, "malformed header (seed 18446744073709551615"),
    ],
)
def test_header_fields_are_checked(tmp_path: Path, change: dict, fragment: str) -> None:
    """Exactly the documented header keys, and a seed in 0 .. 2**63 - 1 (FORMAT.md)."""
    log = sound_log(tmp_path)
    fields = {**attrs.asdict(LogFile(str(log)).open()), **change}
    fields = {k: v for k, v in fields.items() if v is not None}
    rewritten(log, lambda envs: None, raw_header(fields))
    assert_clear_error(invoke(log, "state"), 3, fragment)
    assert_clear_error(invoke(log, "verify"), 3, fragment)


def test_file_cut_inside_the_fixed_header_is_a_truncated_header(tmp_path: Path) -> None:
    """12 bytes of a real log: the magic is right, the header is cut short."""
    log = sound_log(tmp_path)
    log.write_bytes(log.read_bytes()[:12])
    assert_clear_error(invoke(log, "state"), 3, "truncated header at byte 12")


def test_bad_time_of_the_last_record(tmp_path: Path) -> None:
    """A last record whose ``at`` is no time: reads work, an append is refused (exit 3, log
    unchanged) and verify names the record and the time."""
    log = sound_log(tmp_path)
    rewritten(log, lambda envs: envs[-1].update(at="yesterday"))
    before = log.read_bytes()
    assert_clear_error(
        invoke(log, "note", "x"), 3, "its time 'yesterday' is one no command can follow"
    )
    assert log.read_bytes() == before
    bad = LogFile(str(log)).scan_all()[-1]
    assert_clear_error(
        invoke(log, "verify"),
        1,
        f"record #{bad.seq} at byte {bad.offset}: "
        "time 'yesterday' is not YYYY-MM-DDTHH:MM:SS.ffffffZ",
    )


def test_time_going_back_is_found_by_verify(tmp_path: Path) -> None:
    """``at`` goes back from one record to the next only from a far-off time (FORMAT.md): an
    hour back, which no writer stamps, is a corrupt record (exit 1)."""
    log = sound_log(tmp_path)
    hour = dt.datetime.now(dt.UTC) - dt.timedelta(hours=1)
    back = hour.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    rewritten(log, lambda envs: envs[2].update(at=back))
    bad = LogFile(str(log)).scan_all()[2]
    assert_clear_error(
        invoke(log, "verify"),
        1,
        f"record #3 at byte {bad.offset}: time {back} is before the previous record's",
    )


def test_a_time_years_back_is_a_wrong_clock_flagged_by_verify(tmp_path: Path) -> None:
    """A record dated 2001 after one dated today (a clock years behind, or the one before
    years ahead): seq orders the log, so `verify` warns naming it and its time, exit 0."""
    log = sound_log(tmp_path)
    rewritten(log, lambda envs: envs[2].update(at="2001-01-01T00:00:00.000000Z"))
    records = LogFile(str(log)).scan_all()
    result = invoke(log, "verify")
    assert (result.exit_code, result.stdout.startswith(f"ok: {log}: 5 records")) == (0, True)
    assert result.stderr == (
        f"warning: {log}: record #3 at byte {records[2].offset} is dated "
        "2001-01-01T00:00:00.000000Z, more than a day before the record before it "
        f"({records[1].at}): a wrong clock dated one of them; seq orders the log, nothing is "
        "lost\n"
    )


def test_undo_of_a_later_seq_is_refused(tmp_path: Path) -> None:
    """A forged undo marker aimed at a seq not yet logged would take back a later command."""
    log = sound_log(tmp_path)
    rewritten(log, lambda envs: envs.append({**envs[-1], "data": {"target": 9, "reason": ""}}))
    bad = LogFile(str(log)).scan_all()[-1]
    fragment = (
        f"record #{bad.seq} at byte {bad.offset}: core.Undone targets #9, which is not "
        "an earlier event"
    )
    before = log.read_bytes()
    assert_clear_error(invoke(log, "note", "a"), 3, fragment)
    assert log.read_bytes() == before
    assert_clear_error(invoke(log, "verify"), 1, fragment)


@pytest.mark.parametrize("more", [0, None, False, -1, "1"])
def test_a_batch_count_is_present_only_when_at_least_one(tmp_path: Path, more: object) -> None:
    """``more`` on a single record: a bad batch count, not a record taken as whole."""
    log = sound_log(tmp_path)
    rewritten(log, lambda envs: envs[-1].update(more=more))
    result = invoke(log, "state")
    assert_clear_error(result, 3, f"record envelope has a bad batch count {more!r}")


@pytest.mark.parametrize("cmd", [0, -1, "1", True, 1.0, "later"])
def test_a_command_id_is_a_seq_up_to_its_own_record(tmp_path: Path, cmd: object) -> None:
    """``cmd`` on the last record that is no seq of a record up to its own (``"later"``: the
    next one): a fold refuses it as the full check does, naming the value."""
    log = sound_log(tmp_path)
    count = len(LogFile(str(log)).scan_all())
    bad = count + 1 if cmd == "later" else cmd
    rewritten(log, lambda envs: envs[-1].update(cmd=bad))
    result = invoke(log, "state")
    assert_clear_error(result, 3, f"record #{count} at byte")
    assert f"record envelope has a bad command id {bad!r}" in result.stderr


@pytest.mark.parametrize(
    "bad",
    [
        envelope("alien.Probe", {}),
        envelope("core.Undone", {}),
        {**envelope("core.Noted", {}), "v": 99},
    ],
)
def test_salvage_also_stops_at_a_record_that_does_not_decode(tmp_path: Path, bad: dict) -> None:
    """A sound record that verify refuses (unknown type, missing field, future version) is a bad
    record for salvage too: the copy holds the commands before it and verifies."""
    log = sound_log(tmp_path)
    rewritten(log, lambda envs: envs.insert(2, {**bad, "at": envs[1]["at"]}))
    record = LogFile(str(log)).scan_all()[2]
    assert_clear_error(invoke(log, "verify"), 1, f"record #3 at byte {record.offset}")
    out = tmp_path / "kept.tlog"
    assert ok(log, "verify", "--salvage", str(out)).startswith(
        f"salvaged: 2 records ({record.offset} bytes) into {out}; first bad record at byte "
        f"{record.offset}"
    )
    assert ok(out, "verify").startswith(
        f"ok: {out}: 2 records, hash chain intact, replays (toy)\nhead: 2:"
    )


def test_impossible_date_is_found_by_verify(tmp_path: Path) -> None:
    """A time in the right shape but no date (month 13) is not a record time."""
    log = sound_log(tmp_path)
    rewritten(log, lambda envs: envs[-1].update(at="2999-13-45T10:55:25.671206Z"))
    assert_clear_error(invoke(log, "verify"), 1, "time '2999-13-45T10:55:25.671206Z' is not")
    assert_clear_error(invoke(log, "note", "x"), 3, "is one no command can follow")


def test_reads_refuse_a_forged_marker_and_a_log_that_does_not_replay(tmp_path: Path) -> None:
    """log and history read the same checks as state: exit 3, never a rule's refusal (1)."""
    log = sound_log(tmp_path)
    rewritten(log, lambda envs: envs[-1].update(data={"target": 9, "reason": ""}))
    for command in (("log", "--all"), ("history", "a"), ("state",)):
        assert_clear_error(invoke(log, *command), 3, "core.Undone targets #9")
    rewritten(log, lambda envs: envs[-1].update(data={"target": True, "reason": ""}))
    for command in (("log", "--all"), ("history", "a")):
        bad = LogFile(str(log)).scan_all()[-1]  # the decoder or the marker check names it
        assert_clear_error(invoke(log, *command), 3, f"record #5 at byte {bad.offset}: core.Undone")
    (tmp_path / "b").mkdir()
    log = sound_log(tmp_path / "b")
    rewritten(log, lambda envs: envs[1].update(data={"name": "a", "points": 99, "breakdown": {}}))
    assert "hp: 9 -> -90" in ok(log, "history", "a")  # evolvers apply what a record says
    assert_clear_error(
        invoke(log, "verify"),
        1,
        "event #2 toy.PointsSpent does not hold where it stands: TOY-SPEND-1: a: 9 < 99",
    )


def test_scripts_on_a_log_of_an_unknown_system_are_exit_3(tmp_path: Path) -> None:
    """Buffered runs and salvage name the unknown system like every other command."""
    log = sound_log(tmp_path)
    fields = attrs.asdict(LogFile(str(log)).open())
    rewritten(log, lambda envs: None, raw_header({**fields, "system": "dnd"}))
    script = tmp_path / "s.txt"
    script.write_text("note a\nnote b\n")
    for command in (
        ("run", "--atomic", str(script)),
        ("run", "--dry-run", str(script)),
        ("verify", "--salvage", str(tmp_path / "out.tlog")),
    ):
        result = invoke(log, *command)
        assert result.exit_code == 3 and isinstance(result.exception, SystemExit), command
        known = ", ".join(systems.names())
        assert result.stderr.endswith(f"error: unknown system 'dnd' (known: {known})\n"), (
            result.stderr
        )
    assert not (tmp_path / "out.tlog").exists()


@pytest.mark.parametrize("field", ["actor", "at", "prev"])
def test_metadata_of_the_wrong_type_is_found_by_every_read_but_the_fold(
    tmp_path: Path, field: str
) -> None:
    """A fold reads only seq, type, v and data; log, undo, `state --at` (which finds the end of
    a command by time and actor) and verify check the whole envelope."""
    log = sound_log(tmp_path)
    reader = LogFile(str(log))
    offset = reader.scan_all()[1].offset

    def forge(envs: list[dict]) -> None:
        envs[1][field] = 5

    # frame() writes prev itself: for prev, forge the packed record instead
    forged = forge_prev(log, offset) if field == "prev" else rewritten(log, forge)
    assert json.loads(ok(forged, "state", "--json"))["characters"]["a"]["hp"] == 7
    wrong = f"record #2 at byte {offset}: record envelope has fields of the wrong type"
    for command in (("log", "--all"), ("undo",), ("state", "--at", "2")):  # --at: by at, actor
        assert_clear_error(invoke(forged, *command), 3, wrong)
    broken = f"record #2 at byte {offset}: hash chain broken"  # verify finds that first
    assert_clear_error(invoke(forged, "verify"), 1, broken if field == "prev" else wrong)


def forge_prev(log: Path, offset: int) -> Path:
    """Rewrite record #2's ``prev`` as an int, with its CRC recomputed (the chain breaks after)."""
    data = log.read_bytes()
    length, _ = RECORD_PREFIX.unpack_from(data, offset)
    env = msgpack.unpackb(data[offset + 8 : offset + 8 + length])
    payload = msgpack.packb({**env, "prev": 5})
    log.write_bytes(data[:offset] + raw_record(payload) + data[offset + 8 + length :])
    return log


def test_a_batch_count_in_place_of_prev_is_no_envelope_for_a_fold(tmp_path: Path) -> None:
    """Seven keys with ``more`` but no ``prev``: a fold refuses it as it refuses any bad shape."""
    log = sound_log(tmp_path)
    offset = LogFile(str(log)).scan_all()[1].offset
    data = log.read_bytes()
    length, _ = RECORD_PREFIX.unpack_from(data, offset)
    env = msgpack.unpackb(data[offset + 8 : offset + 8 + length])
    env = {k: v for k, v in env.items() if k != "prev"} | {"more": 3}
    log.write_bytes(data[:offset] + raw_record(msgpack.packb(env)) + data[offset + 8 + length :])
    assert_clear_error(
        invoke(log, "state"), 3, f"record #2 at byte {offset}: record is not a tablelog envelope"
    )


def test_an_event_of_another_system_is_refused_whatever_is_loaded(tmp_path: Path) -> None:
    """A magicpunk event forged into a pf2e log: every fold refuses it, even with magicpunk's
    modules loaded (CliRunner loads every system), and nothing is appended."""
    log = tmp_path / "p.tlog"
    ok(log, "init", "--system", "pf2e", "--seed", "1")
    ok(log, "pf2e", "character", "add", "Valeros", "--level", "8")
    rewritten(log, lambda envs: envs.append(envelope("magicpunk.LeisureStarted", {})))
    offset = LogFile(str(log)).scan_all()[-1].offset
    fragment = (
        f"record #2 at byte {offset}: a magicpunk event (magicpunk.LeisureStarted) in a pf2e log"
    )
    for command in (
        ("state",),
        ("magicpunk", "leisure", "start"),
        ("pf2e", "character", "add", "Kyra", "--level", "3"),
        ("history", "Valeros"),
    ):
        before = log.read_bytes()
        assert_clear_error(invoke(log, *command), 3, fragment)
        assert before == log.read_bytes()


@pytest.mark.parametrize("value", ["1e400", "1e999999999", True, "1.0", " 1/2", "1/0", 0.5])
def test_a_stored_fraction_is_exactly_n_over_d(tmp_path: Path, value: object) -> None:
    """A saga random factor is stored as "n/d"; anything else (an exponent that would take
    minutes to build, a float, a bool, padding, a zero denominator) does not decode."""
    log = tmp_path / "s.tlog"
    ok(log, "run", str(EXAMPLES / "saga-wolf-road.txt"))
    index = next(i for i, r in enumerate(LogFile(str(log)).scan_all()) if "random_factor" in r.data)
    rewritten(log, lambda envs: envs[index]["data"].update(random_factor=value))
    fragment = f"record #{index + 1} at byte"
    assert_clear_error(invoke(log, "state"), 3, fragment)
    assert_clear_error(invoke(log, "verify"), 1, fragment)
    assert_clear_error(invoke(log, "log"), 3, fragment)


def test_replay_until_and_state_at_agree_on_a_prefix_whose_event_does_not_hold(
    tmp_path: Path,
) -> None:
    """Event #6 does not hold where it stands and is undone later: the log verifies, and
    `replay --until 6` ends on the state `state --at 6` shows (evolvers apply what it says)."""
    log = sound_log(tmp_path)
    rewritten(
        log,
        lambda envs: envs.extend(
            [
                envelope("toy.PointsSpent", {"name": "a", "points": 99, "breakdown": {}}),
                envelope("core.Undone", {"target": 6, "reason": ""}),
            ]
        ),
    )
    ok(log, "verify")
    assert json.loads(ok(log, "state", "--at", "6", "--json"))["characters"]["a"]["hp"] == -92
    assert "hp: 7 -> -92" in ok(log, "replay", "--until", "6")


def _repacked(log: Path, seq: int, payload: bytes) -> tuple[Path, int]:
    """Return a copy of ``log`` whose record ``seq`` holds ``payload`` (its CRC-32 made to
    match, so the damage reaches the envelope and data), and that record's offset."""
    reader = LogFile(str(log))
    offset = next(r.offset for r in reader.scan_all() if r.seq == seq)
    data = log.read_bytes()
    length, _ = RECORD_PREFIX.unpack_from(data, offset)
    framed = RECORD_PREFIX.pack(len(payload), zlib.crc32(payload)) + payload
    out = log.with_name(f"damaged-{seq}.tlog")
    out.write_bytes(data[:offset] + framed + data[offset + 8 + length :])
    return out, offset


@pytest.mark.parametrize("seq", [2, 4])  # an event that is folded; one that is undone
@pytest.mark.parametrize("damage", ["utf8", "deep"])
def test_undecodable_data_is_a_corrupt_record_for_the_fold_too(
    tmp_path: Path, damage: str, seq: int
) -> None:
    """Bytes inside an event's data that msgpack cannot decode — a string that is not UTF-8,
    arrays nested 3,000 deep — with the record's CRC-32 matching: every read, the fold's
    included (it decodes data late, straight into the event), says "malformed record
    payload" for that record, exit 3 (verify: 1), whether the event is folded or undone."""
    log = sound_log(tmp_path)
    reader = LogFile(str(log))
    data = log.read_bytes()
    offset = next(r.offset for r in reader.scan_all() if r.seq == seq)
    length, _ = RECORD_PREFIX.unpack_from(data, offset)
    env = msgpack.unpackb(data[offset + 8 : offset + 8 + length])
    env["data"][next(iter(env["data"]))] = "\x00X\x00"  # a 3-byte string, made bad below
    packed = msgpack.packb(env)
    if damage == "utf8":
        packed = packed.replace(b"\xa3" + b"\x00X\x00", b"\xa3\xffX\x00")
    else:
        packed = packed.replace(b"\xa3" + b"\x00X\x00", b"\x91" * 3000 + b"\x00")
    forged, at = _repacked(log, seq, packed)
    before = forged.read_bytes()
    wrong = f"record #{seq} at byte {at}: malformed record payload"
    for command in (("state",), ("log", "--all"), ("state", "--json")):
        assert_clear_error(invoke(forged, *command), 3, wrong)
    assert_clear_error(invoke(forged, "verify"), 1, wrong)
    assert forged.read_bytes() == before
