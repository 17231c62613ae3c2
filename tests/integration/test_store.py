"""Integration tests of the log store (tablelog/store): framing, scanning, torn tails, appends."""

from __future__ import annotations

import multiprocessing
import os
import uuid
import zlib
from pathlib import Path

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablelog.store.format import (
    MAX_RECORD_BYTES,
    RECORD_PREFIX,
    Header,
    Position,
    chain_hash,
    pack_record,
)
from tablelog.store.log import LogError, LogFile, LogMovedOn, frame
from tablelog.store.reader import after
from tablelog.store.repair import repair, salvage

HEADER = Header(session_id="s-1", system="toy", created="2026-01-01T00:00:00.000000Z", seed=7)


def envelope(i: int) -> dict:
    """A small envelope as the session writes it (seq and prev are filled in by the store)."""
    return {
        "type": "core.Noted",
        "v": 1,
        "at": f"2026-01-01T00:00:{i % 60:02d}.000000Z",
        "actor": "gm",
        "data": {"text": f"note {i}"},
    }


def make(tmp_path: Path, batches: list[int]) -> LogFile:
    """Create a log and append batches of the given sizes; return it."""
    log = LogFile.create(str(tmp_path / "s.tlog"), HEADER)
    assert log.start is not None
    pos, i = log.start, 0
    for size in batches:
        pos = log.append([envelope(i + k) for k in range(size)], pos)
        i += size
    return log


def test_round_trip_of_records(tmp_path: Path) -> None:
    """Appended envelopes come back with their seq, fields and byte offsets."""
    log = make(tmp_path, [1, 1, 1])
    records = LogFile(log.path).scan_all()
    assert [r.seq for r in records] == [1, 2, 3]
    assert [r.data for r in records] == [{"text": "note 0"}, {"text": "note 1"}, {"text": "note 2"}]
    assert (records[0].type, records[0].v, records[0].actor) == ("core.Noted", 1, "gm")
    assert records[0].offset == log.start.span[1]  # type: ignore[union-attr,index]
    assert records[1].offset > records[0].offset


def test_end_position_names_the_last_record(tmp_path: Path) -> None:
    """After a scan, ``end`` holds the last seq, the file size and where the last record starts."""
    log = make(tmp_path, [2, 1])
    reader = LogFile(log.path)
    records = reader.scan_all()
    assert reader.end is not None
    assert (reader.end.seq, reader.end.span) == (3, (records[-1].offset, os.path.getsize(log.path)))
    assert reader.torn_at is None


def test_end_hash_is_the_same_with_or_without_checking_the_chain(tmp_path: Path) -> None:
    """Reads that skip the chain check still end at the last record's chain hash (what the next
    append writes as ``prev``), from the start or from any position."""
    log = make(tmp_path, [2, 1, 3])
    ends = []
    for chain in (True, False):
        reader = LogFile(log.path)
        reader.scan_all(chain=chain)
        ends.append(reader.end)
    assert ends[0] == ends[1] == log.end
    assert ends[0] is not None and ends[0].prev == chain_hash(
        Path(log.path).read_bytes()[ends[0].span[0] + RECORD_PREFIX.size :]  # type: ignore[index]
    )
    reader = LogFile(log.path)
    third = [record for record in reader.records(chain=True)][2]
    after_third = after(third)
    for chain in (True, False):
        reader = LogFile(log.path)
        assert [r[0] for r in reader.records(after_third, chain)] == [4, 5, 6]
        assert reader.end == log.end


def test_only_a_chain_check_finds_a_rechecksummed_edit(tmp_path: Path) -> None:
    """A record edited with its CRC recomputed: reads take it (CRC right), ``chain=True`` names
    the next record and its offset."""
    log = make(tmp_path, [1, 1, 1])
    records = LogFile(log.path).scan_all()
    data = Path(log.path).read_bytes()
    start, end = records[1].offset, records[2].offset
    payload = data[start + 8 : end].replace(b"note 1", b"NOTE 1")
    frame_ = RECORD_PREFIX.pack(len(payload), zlib.crc32(payload)) + payload  # CRC recomputed
    Path(log.path).write_bytes(data[:start] + frame_ + data[end:])
    assert [r.data["text"] for r in LogFile(log.path).scan_all()] == ["note 0", "NOTE 1", "note 2"]
    with pytest.raises(LogError, match=f"corrupt record #3 at byte {end}: hash chain broken"):
        LogFile(log.path).scan_all(chain=True)


def test_header_round_trip(tmp_path: Path) -> None:
    """The header read back equals the header written."""
    log = make(tmp_path, [])
    assert LogFile(log.path).open() == HEADER


def test_create_refuses_to_overwrite(tmp_path: Path) -> None:
    """Creating a log where a file exists is refused and leaves the file alone."""
    path = tmp_path / "s.tlog"
    path.write_bytes(b"precious")
    with pytest.raises(LogError, match="already exists"):
        LogFile.create(str(path), HEADER)
    assert path.read_bytes() == b"precious"


def test_cut_at_every_offset_of_the_last_record(tmp_path: Path) -> None:
    """A log cut at any byte inside its last record opens with every earlier record."""
    log = make(tmp_path, [1, 1, 1])
    whole = Path(log.path).read_bytes()
    last = LogFile(log.path).scan_all()[-1].offset
    cut = tmp_path / "cut.tlog"
    for size in range(last + 1, len(whole)):
        cut.write_bytes(whole[:size])
        reader = LogFile(str(cut))
        assert [r.seq for r in reader.scan()] == [1, 2], size
        assert reader.torn_at == last, size


def test_cut_inside_a_batch_drops_the_whole_batch(tmp_path: Path) -> None:
    """A batch (one command's records) cut anywhere is dropped whole: all or nothing."""
    log = make(tmp_path, [1, 3])
    whole = Path(log.path).read_bytes()
    records = LogFile(log.path).scan_all()
    batch_start = records[1].offset
    cut = tmp_path / "cut.tlog"
    for size in range(batch_start + 1, len(whole)):
        cut.write_bytes(whole[:size])
        reader = LogFile(str(cut))
        assert [r.seq for r in reader.scan()] == [1], size
        assert reader.torn_at == batch_start, size


def test_batches_carry_their_remaining_count(tmp_path: Path) -> None:
    """Every record of a batch but the last names how many of the batch follow it."""
    data, end = frame([envelope(0), envelope(1), envelope(2)], Position(0, b"\0" * 16, (100, 100)))
    assert end.seq == 3 and end.span is not None and end.span[1] == 100 + len(data)
    import msgpack

    payloads, at = [], 0
    while at < len(data):
        length = int.from_bytes(data[at : at + 4], "big")
        payloads.append(msgpack.unpackb(data[at + 8 : at + 8 + length]))
        at += 8 + length
    assert [p.get("more") for p in payloads] == [2, 1, None]


def test_flipped_byte_is_found(tmp_path: Path) -> None:
    """A flipped payload byte is a corrupt record naming its seq and offset, not a torn tail."""
    log = make(tmp_path, [1, 1, 1])
    records = LogFile(log.path).scan_all()
    data = bytearray(Path(log.path).read_bytes())
    data[records[1].offset + 20] ^= 0x40
    Path(log.path).write_bytes(bytes(data))
    with pytest.raises(LogError, match=f"corrupt record #2 at byte {records[1].offset}") as exc:
        LogFile(log.path).scan_all()
    assert (exc.value.seq, exc.value.offset) == (2, records[1].offset)


def test_damaged_length_of_a_whole_record_is_not_a_torn_tail(tmp_path: Path) -> None:
    """A length field raised past the end of the file on a whole record is corruption."""
    log = make(tmp_path, [1, 1])
    records = LogFile(log.path).scan_all()
    data = bytearray(Path(log.path).read_bytes())
    data[records[1].offset + 1] ^= 0x01  # +65536 bytes: runs past the end of the file
    Path(log.path).write_bytes(bytes(data))
    with pytest.raises(LogError, match="length field damaged"):
        LogFile(log.path).scan_all()
    with pytest.raises(LogError):
        repair(LogFile(log.path))
    assert Path(log.path).read_bytes() == bytes(data)


def test_length_over_the_limit_is_refused_before_reading(tmp_path: Path) -> None:
    """A length prefix above MAX_RECORD_BYTES is a corrupt record (no allocation of it)."""
    log = make(tmp_path, [1])
    with open(log.path, "ab") as f:
        f.write((MAX_RECORD_BYTES + 1).to_bytes(4, "big") + b"\0\0\0\0")
    with pytest.raises(LogError, match=f"record length {MAX_RECORD_BYTES + 1} is over the limit"):
        LogFile(log.path).scan_all()


def test_append_refuses_a_stale_position(tmp_path: Path) -> None:
    """An append decided on an old end raises LogMovedOn and writes nothing."""
    log = make(tmp_path, [1])
    assert log.start is not None
    before = Path(log.path).read_bytes()
    with pytest.raises(LogMovedOn):
        log.append([envelope(9)], log.start)
    assert Path(log.path).read_bytes() == before


def test_append_refuses_on_a_torn_tail(tmp_path: Path) -> None:
    """An append onto a torn tail is refused with the repair hint; repair then allows it."""
    log = make(tmp_path, [1, 1])
    whole = Path(log.path).read_bytes()
    Path(log.path).write_bytes(whole[:-3])
    reader = LogFile(log.path)
    reader.scan_all()
    assert reader.end is not None
    with pytest.raises(LogError, match="verify --repair"):
        reader.append([envelope(5)], reader.end)
    torn_at, backup = repair(reader) or (0, "")
    assert Path(backup).read_bytes() == whole[:-3]
    assert os.path.getsize(log.path) == torn_at == reader.end.span[1]  # type: ignore[index]
    reader.append([envelope(5)], reader.end)
    assert [r.seq for r in LogFile(log.path).scan()] == [1, 2]


def test_repair_leaves_a_sound_log_alone(tmp_path: Path) -> None:
    """repair on a log without a torn tail returns None and writes no backup."""
    log = make(tmp_path, [1])
    assert repair(LogFile(log.path)) is None
    assert not Path(log.path + ".bak").exists()


def test_salvage_keeps_the_valid_prefix(tmp_path: Path) -> None:
    """salvage copies the header and the records before the first bad one into a new log."""
    log = make(tmp_path, [1, 1, 1, 1])
    records = LogFile(log.path).scan_all()
    data = bytearray(Path(log.path).read_bytes())
    data[records[2].offset + 12] ^= 0xFF
    Path(log.path).write_bytes(bytes(data))
    out = tmp_path / "saved.tlog"
    kept, size, bad = salvage(LogFile(log.path), str(out))
    assert (kept, size, bad) == (2, records[2].offset, records[2].offset)
    assert out.read_bytes() == bytes(data[: records[2].offset])
    assert [r.seq for r in LogFile(str(out)).scan()] == [1, 2]
    with pytest.raises(LogError, match="cannot create"):
        salvage(LogFile(log.path), str(out))


def test_wrong_envelope_shape_is_corrupt(tmp_path: Path) -> None:
    """A record with a valid checksum but not an envelope map is a clear corrupt-record error."""
    log = make(tmp_path, [1])
    reader = LogFile(log.path)
    reader.scan_all()
    assert reader.end is not None
    with open(log.path, "ab") as f:
        f.write(pack_record({"seq": 2, "type": "core.Noted"}))
    with pytest.raises(LogError, match="corrupt record #2 .*not a tablelog envelope"):
        LogFile(log.path).scan_all()


def _appender(path: str, count: int, tag: int) -> None:
    """Append ``count`` single-record batches, retrying from the new end when the log moved."""
    log = LogFile(path)
    for i in range(count):
        while True:
            for _ in log.scan():
                pass
            assert log.end is not None
            try:
                log.append([envelope(tag * 1000 + i)], log.end)
                break
            except LogMovedOn:
                continue


def test_processes_appending_at_once_lose_nothing(tmp_path: Path) -> None:
    """Four processes appending 25 records each: 100 records, seq contiguous, none lost."""
    log = make(tmp_path, [])
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_appender, args=(log.path, 25, tag)) for tag in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    assert [p.exitcode for p in procs] == [0, 0, 0, 0]
    records = LogFile(log.path).scan_all()
    assert [r.seq for r in records] == list(range(1, 101))
    texts = sorted(r.data["text"] for r in records)
    assert texts == sorted(f"note {tag * 1000 + i}" for tag in range(4) for i in range(25))


def test_unstorable_value_is_refused_before_writing(tmp_path: Path) -> None:
    """An envelope msgpack cannot encode is a LogError, and the log is unchanged."""
    log = make(tmp_path, [1])
    reader = LogFile(log.path)
    reader.scan_all()
    assert reader.end is not None
    before = Path(log.path).read_bytes()
    bad = {**envelope(1), "data": {"n": 2**70}}
    with pytest.raises(LogError, match="cannot store the events in .*; the log is unchanged"):
        reader.append([bad], reader.end)
    assert Path(log.path).read_bytes() == before


def _spend(i: int, points: int) -> dict:
    return {**envelope(i), "type": "toy.PointsSpent", "data": {"points": points}}


def _mixed_log(tmp_path: Path) -> LogFile:
    """Seqs 1-3: spends of 1, 2, 3; 4-5: one batch of two spends; 6: a note; 7: a spend of 7."""
    log = LogFile.create(str(tmp_path / "a.tlog"), HEADER)
    assert log.start is not None
    pos = log.append([_spend(1, 1)], log.start)
    pos = log.append([_spend(2, 2)], pos)
    pos = log.append([_spend(3, 3)], pos)
    pos = log.append([_spend(4, 4), _spend(5, 5)], pos)
    pos = log.append([envelope(6)], pos)
    log.append([_spend(7, 7)], pos)
    return log


def test_reader_hands_over_every_record_a_batch_once_it_is_whole(tmp_path: Path) -> None:
    """Framing -> checks -> records: every record in seq order, a batch's two together, each
    with its own offset and end."""
    log = _mixed_log(tmp_path)
    read = list(LogFile(log.path).records())
    assert list(range(1, 8)) == [seq for seq, *_ in read]
    assert [env["data"].get("points") for _, env, *_ in read] == [1, 2, 3, 4, 5, None, 7]
    assert [(seq, env.get("more")) for seq, env, *_ in read[3:5]] == [(4, 1), (5, None)]
    assert all(end == after[2] for (*_, end, _), after in zip(read, read[1:], strict=False))


def test_reader_never_hands_over_a_torn_batch(tmp_path: Path) -> None:
    """A batch cut inside its last record is a torn tail: none of its records is handed over,
    ``torn_at`` is the batch's first record and ``end`` the record before it."""
    log = _mixed_log(tmp_path)
    offsets = {seq: (offset, end) for seq, _, offset, end, _ in LogFile(log.path).records()}
    with open(log.path, "r+b") as f:
        f.truncate(offsets[5][1] - 3)
    for fold in (False, True):
        reader = LogFile(log.path)
        handed = [seq for seq, *_ in reader.records(fold=fold)]
        assert ([1, 2, 3], offsets[4][0]) == (handed, reader.torn_at)
        assert reader.end is not None and (3, offsets[3]) == (reader.end.seq, reader.end.span)


def test_a_fold_read_leaves_the_same_end_as_a_plain_read(tmp_path: Path) -> None:
    """After a fold's read (fewer envelope checks, FoldEnvelope records with their data still
    packed), the records and ``end`` are what a plain read gives."""
    log = _mixed_log(tmp_path)
    plain, folding = LogFile(log.path), LogFile(log.path)
    folded = [
        (seq, {"type": env.type, "v": env.v, "data": msgpack.unpackb(env.data)}, *rest)
        for seq, env, *rest in folding.records(fold=True)
    ]
    assert [
        (seq, {key: env[key] for key in ("type", "v", "data")}, *rest)
        for seq, env, *rest in plain.records()
    ] == folded
    assert plain.end is not None
    assert plain.end == folding.end
    assert plain.end.seq == 7


def test_reading_goes_on_from_the_position_after_a_record(tmp_path: Path) -> None:
    """A read from the position after record 3 hands over 4-7 and ends where a whole read
    ends."""
    log = _mixed_log(tmp_path)
    whole = LogFile(log.path)
    ends = {record[0]: after(record) for record in whole.records()}
    rest = LogFile(log.path)
    assert [seq for seq, *_ in rest.records(ends[3])] == [4, 5, 6, 7]
    assert ends[7] == rest.end == whole.end
    assert ends[7].span == rest.end.span == whole.end.span  # type: ignore[union-attr]


def test_a_position_without_its_span_is_found_by_its_seq_and_hash(tmp_path: Path) -> None:
    """A position is its seq and chain hash: one made elsewhere (no span) reads on from the
    same record; one whose hash the log does not hold is refused, naming it."""
    log = _mixed_log(tmp_path)
    third = LogFile(log.path).position(3)
    assert third is not None
    bare = Position(3, third.prev)
    assert bare == third and [seq for seq, *_ in LogFile(log.path).records(bare)] == [4, 5, 6, 7]
    with pytest.raises(LogError, match="holds no record #3 with that chain hash"):
        list(LogFile(log.path).records(Position(3, b"\0" * 16)))


LEFT_TO_THEIR_READS = ("fields of the wrong type", "malformed record payload (UnicodeDecodeError)")
"""What a fold's read leaves to the reads that use a field: ``at``, ``actor`` and ``prev`` of
another type, and text that is not UTF-8 (in those, or in ``data``, which the fold decodes)."""


def _read(log_path: str, fold: bool) -> tuple[list[tuple[int, int, int]], str, object, object]:
    """Read a log: ``(seq, offset, end)`` of each record handed over, the error (or ""),
    ``end`` and ``torn_at``; with ``fold``, as a fold reads it."""
    reader = LogFile(log_path)
    got: list[tuple[int, int, int]] = []
    error = ""
    try:
        for seq, _, offset, end, _ in reader.records(fold=fold):
            got.append((seq, offset, end))
    except LogError as exc:
        error = str(exc)
    return got, error, reader.end, reader.torn_at


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    batches=st.lists(st.integers(1, 3), min_size=1, max_size=8),
    damage=st.sampled_from(["none", "truncate", "flip", "flip-crc", "key", "more"]),
    where=st.floats(0, 1),
    byte=st.integers(0, 255),
)
def test_a_fold_reads_what_every_read_reads(
    tmp_path: Path, batches: list[int], damage: str, where: float, byte: int
) -> None:
    """A fold's read (``records(fold=True)``: its envelopes decoded in one C pass, data still
    packed) against a plain read of the same log, whole or damaged (cut anywhere, a byte
    changed with or without its CRC-32 recomputed, a key renamed, a batch count changed): the
    same records handed over, the same error, the same ``end`` and ``torn_at``, but where the
    damage gave ``at``, ``actor`` or ``prev`` another type (only reads that use them check
    them: docs/RELIABILITY.md)."""
    path = tmp_path / f"f-{uuid.uuid4().hex}.tlog"
    log = LogFile.create(str(path), HEADER)
    assert log.start is not None
    pos, n = log.start, 0
    for size in batches:
        first = n + 1
        envs = [{**envelope(n + k), "cmd": first} for k in range(1, size + 1)]
        pos = log.append(envs, pos)
        n += size
    data = bytearray(path.read_bytes())
    start = log.start.span[1]  # type: ignore[index]
    at = start + int(where * (len(data) - start - 1))
    offsets, o = [], start
    while o < len(data):
        offsets.append(o)
        o += 8 + RECORD_PREFIX.unpack_from(data, o)[0]
    record = max(x for x in offsets if x <= at)
    length = RECORD_PREFIX.unpack_from(data, record)[0]
    payload = data[record + 8 : record + 8 + length]
    if damage == "truncate":
        del data[at:]
    elif damage in ("flip", "flip-crc"):
        data[at] = byte if data[at] != byte else (byte + 1) % 256
    elif damage == "key":
        payload = payload.replace(b"\xa3cmd", b"\xa3cmz", 1)
    elif damage == "more":
        env = msgpack.unpackb(bytes(payload))
        env["more"] = byte % 4
        payload = msgpack.packb(env)
    if damage in ("key", "more") or (damage == "flip-crc" and at >= record + 8):
        if damage == "flip-crc":
            payload = data[record + 8 : record + 8 + length]
        framed = RECORD_PREFIX.pack(len(payload), zlib.crc32(payload)) + bytes(payload)
        data[record : record + 8 + length] = framed
    path.write_bytes(bytes(data))
    plain = _read(str(path), fold=False)
    if not any(why in plain[1] for why in LEFT_TO_THEIR_READS):
        assert plain == _read(str(path), fold=True), plain[1]
