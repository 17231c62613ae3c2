"""Property tests of the store: round trips, cuts at any offset, the snapshot codec, snapshots
never changing a fold."""

from __future__ import annotations

import tempfile
from fractions import Fraction
from pathlib import Path
from typing import Any

import attrs
import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablelog import replay
from tablelog.commands.core import AddNote, Redo, Undo
from tablelog.events.codec import (
    CodecError,
    converter,
    decoder,
    fast_path,
    from_record,
    packed_decoder,
    to_record,
)
from tablelog.events.core import Event, event
from tablelog.projections.history import state_json
from tablelog.rules.core import RuleViolation
from tablelog.session import Session
from tablelog.store.format import Header
from tablelog.store.log import LogFile
from tablelog.store.snapshot import decode_state, encode_state
from tests.support import toy

toy.install()

HEADER = Header(session_id="p", system="toy", created="2026-01-01T00:00:00.000000Z", seed=1)

scalars = st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.text(max_size=8)
plain = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
batches = st.lists(
    st.lists(st.dictionaries(st.text(max_size=5), plain, max_size=3), min_size=1, max_size=3),
    min_size=1,
    max_size=6,
)


def write(path: Path, groups: list[list[dict[str, Any]]]) -> list[int]:
    """Append each group of data maps as one batch; return the seq that ends each batch."""
    log = LogFile.create(str(path), HEADER)
    assert log.start is not None
    pos, ends = log.start, []
    for group in groups:
        pos = log.append(
            [{"type": "x.Y", "v": 1, "at": "t", "actor": "p", "data": d} for d in group], pos
        )
        ends.append(pos.seq)
    return ends


@given(batches)
def test_records_round_trip(groups: list[list[dict[str, Any]]]) -> None:
    """Whatever plain data is appended, in whatever batches, is read back equal and in order."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "s.tlog"
        write(path, groups)
        records = LogFile(str(path)).scan_all()
        assert [r.data for r in records] == [d for group in groups for d in group]
        assert [r.seq for r in records] == list(range(1, len(records) + 1))


@given(batches, st.floats(0, 1))
def test_a_cut_keeps_exactly_the_whole_batches(
    groups: list[list[dict[str, Any]]], where: float
) -> None:
    """A log cut at any offset reads as the batches that end before the cut, nothing more."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "s.tlog"
        ends = write(path, groups)
        data = path.read_bytes()
        reader = LogFile(str(path))
        reader.open()
        assert reader.start is not None
        size = reader.start.offset + int(where * (len(data) - reader.start.offset))
        path.write_bytes(data[:size])
        seqs = [r.seq for r in LogFile(str(path)).scan()]
        whole = [e for e in ends if e <= len(seqs)]
        assert seqs == list(range(1, (whole[-1] if whole else 0) + 1))
        assert len(seqs) in (0, *ends)


snap_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.text(max_size=6)
    | st.fractions()
    | st.floats(allow_nan=False)
    | st.binary(max_size=4)
)
snap_keys = st.text(max_size=4) | st.integers(-5, 5)
snap_values = st.recursive(
    snap_scalars,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.tuples(inner, inner)
        | st.dictionaries(snap_keys, inner, max_size=3)
        | st.sets(st.integers() | st.text(max_size=3), max_size=3)
        | st.frozensets(st.integers(), max_size=3)
    ),
    max_leaves=15,
)


def same_types(a: Any, b: Any) -> bool:
    """Equal and of the same types all the way down (a tuple is not a list)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return all(same_types(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple):
        return all(same_types(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


@given(st.dictionaries(st.text(max_size=5), snap_values, max_size=5))
def test_snapshot_codec_keeps_values_and_types(fields: dict[str, Any]) -> None:
    """State data with tuples, Fractions, sets and int keys decodes to equal values, same types."""
    decoded = decode_state(encode_state(fields))
    assert decoded == fields
    assert same_types(decoded, fields)


def test_snapshot_codec_example() -> None:
    """A concrete state round-trips with its Fraction, tuple, set and int-keyed dict intact."""
    fields = {"extra": {"ratio": Fraction(7, 3), "pair": ("a", 1), "seen": {2, 3}, 4: [1.5]}}
    assert decode_state(encode_state(fields)) == fields
    assert type(decode_state(encode_state(fields))["extra"]["pair"]) is tuple


NAMES = ("a", "b")
commands = st.lists(
    st.one_of(
        st.builds(toy.AddCounter, st.sampled_from(NAMES), st.integers(0, 9)),
        st.builds(toy.SpendPoints, st.sampled_from(NAMES), st.integers(0, 4)),
        st.builds(toy.RollDie, st.sampled_from(NAMES)),
        st.builds(AddNote, st.just("n")),
        st.builds(Undo, st.none() | st.integers(1, 20)),
        st.builds(Redo, st.none() | st.integers(1, 20)),
    ),
    max_size=24,
)


@settings(max_examples=40)
@given(commands, st.integers(1, 6), st.lists(st.integers(0, 30), max_size=4))
def test_snapshots_never_change_a_fold(cmds: list[object], every: int, untils: list[int]) -> None:
    """With checkpoints every 1..6 events, a fresh fold (now and at any seq) equals the fold of
    the log without snapshots."""
    old = replay.SNAPSHOT_EVERY
    replay.SNAPSHOT_EVERY = every
    try:
        with tempfile.TemporaryDirectory() as tmp:
            path = str(Path(tmp) / "s.tlog")
            session = Session.create(path, "toy", seed=3)
            for command in cmds:
                try:
                    session.execute(command)
                except RuleViolation:
                    pass
            last = Session(path, snapshots=False).state().seq
            for until in [None, *(u for u in untils if u <= last)]:
                plain_fold = Session(path, snapshots=False).state(until)
                cached = Session(path).state(until)
                assert state_json(cached) == state_json(plain_fold)
    finally:
        replay.SNAPSHOT_EVERY = old


@event("codec.Sampled", entities=("name",))
@attrs.frozen
class Sampled(Event):
    """A test-only event with every kind of plain field the codec's fast path handles."""

    name: str
    count: int
    ratio: float
    cards: tuple[str, ...]
    rolls: list[int]
    notes: dict[str, str]
    flag: bool = False
    owner: str | None = None


ints = st.integers(-(2**63), 2**63 - 1)
sampled = st.builds(
    Sampled,
    st.text(max_size=5),
    ints,
    st.floats(allow_nan=False),
    st.lists(st.text(max_size=3), max_size=3).map(tuple),
    st.lists(ints, max_size=3),
    st.dictionaries(st.text(max_size=3), st.text(max_size=3), max_size=2),
    st.booleans(),
    st.none() | st.text(max_size=3),
)


@given(sampled)
def test_codec_fast_path_matches_cattrs(e: Sampled) -> None:
    """The fast path gives the converter's data and builds back an equal event."""
    kind, version, data = to_record(e)
    assert (kind, version) == ("codec.Sampled", 1)
    assert data == converter.unstructure(e)
    assert from_record(kind, version, msgpack.unpackb(msgpack.packb(data))) == e


@attrs.frozen
class Sheet:
    """A nested record of plain fields (as pf2e's ItemSheet)."""

    runes: tuple[str, ...]
    level: int
    hardness: int | None = None


@event("codec.Rated")
@attrs.frozen
class Rated(Event):
    """A test-only event with Fraction fields (stored as "n/d") and a nested class: both on the
    fast path since issue 14."""

    name: str
    rate: Fraction
    floor: Fraction | None = None
    sheet: Sheet | None = None


sheets = st.none() | st.builds(
    Sheet, st.lists(st.text(max_size=3), max_size=3).map(tuple), ints, st.none() | ints
)


stored = st.fractions(-(10**20), 10**20, max_denominator=10**6)  # "n/d": 30 digits a part at most


@given(st.text(max_size=5), stored, st.none() | stored, sheets)
def test_codec_fast_path_of_fractions_and_nested_classes_matches_cattrs(
    name: str, rate: Fraction, floor: Fraction | None, sheet: Sheet | None
) -> None:
    """A Fraction field goes both ways as the converter takes it ("n/d"), a nested class as its
    data."""
    e = Rated(name, rate, floor, sheet)
    kind, version, data = to_record(e)
    assert data == converter.unstructure(e)
    assert data["rate"] == f"{rate.numerator}/{rate.denominator}"
    assert fast_path(kind, version)(msgpack.unpackb(msgpack.packb(data))) == e


def test_codec_fast_path_leaves_a_bad_fraction_to_cattrs() -> None:
    """ "2/4" is 1/2 either way; "1/0", 0.5 and "1.5" are off the fast path, and so is a
    nested record with a field too many or of another type: cattrs refuses them as before."""
    good = {
        "name": "a",
        "rate": "2/4",
        "floor": None,
        "sheet": {"runes": ["x"], "level": 2, "hardness": None},
    }
    assert from_record("codec.Rated", 1, good) == Rated("a", Fraction(1, 2), None, Sheet(("x",), 2))
    bad_sheets = [{**good["sheet"], "extra": 1}, {**good["sheet"], "level": "2"}, ["x", 2]]
    for rate, sheet in [
        ("1/0", None),
        (0.5, None),
        ("1.5", None),
        *(("1/2", bad) for bad in bad_sheets),
    ]:
        data = {"name": "a", "rate": rate, "floor": None, "sheet": sheet}
        assert fast_path("codec.Rated", 1)(dict(data)) is None
        with pytest.raises(CodecError, match="data does not fit the event"):
            from_record("codec.Rated", 1, data)


@given(st.text(max_size=5), stored, st.none() | stored)
def test_packed_decoder_builds_what_the_codec_builds(
    name: str, rate: Fraction, floor: Fraction | None
) -> None:
    """The fold's decoder of still-packed data (msgspec) builds the event the codec builds
    from the unpacked map, Fractions included."""
    e = Priced(name, rate, floor)
    kind, version, data = to_record(e)
    build = packed_decoder(kind, version)
    assert build is not None
    assert build(msgpack.packb(data)) == e == decoder(kind, version)(data)


def test_packed_decoder_leaves_every_other_map_to_the_codec() -> None:
    """A key too many, a value of another type (an int for a str, a float for a Fraction,
    "1/0", a bool for a Fraction), a list, no map at all: the packed decoder returns None, and
    the codec refuses as before; a defaulted key missing: None too, and the codec gives the
    default. A class with a nested attrs class is decoded through mirrors, as exactly (a
    nested key too many or missing: None); an older version's record has no packed decoder
    (upcasters read it unpacked)."""
    good = {"name": "a", "rate": "2/4", "floor": None}
    build = packed_decoder("codec.Priced", 1)
    assert build is not None
    assert build(msgpack.packb(good)) == Priced("a", Fraction(1, 2), None)
    assert build(msgpack.packb({"name": "a", "rate": "2/4"})) is None
    assert from_record("codec.Priced", 1, {"name": "a", "rate": "2/4"}) == Priced("a", 0.5)
    for bad in [
        {**good, "extra": 1},
        {"name": "a", "rate": "2/4", "flor": None},  # a defaulted key swapped for an unknown
        {**good, "name": 1},
        {**good, "rate": "1/0"},
        {**good, "rate": 0.5},
        {**good, "floor": True},
        [good["name"], good["rate"], None],
        "a",
    ]:
        assert build(msgpack.packb(bad)) is None
        with pytest.raises(CodecError):
            from_record("codec.Priced", 1, bad)
    nested = packed_decoder("codec.Rated", 1)  # a nested Sheet: through a mirror, exactly
    assert nested is not None
    rated = {"name": "a", "rate": "1/2", "floor": None, "sheet": {"runes": ["x"], "level": 2}}
    rated["sheet"]["hardness"] = None
    assert nested(msgpack.packb(rated)) == Rated("a", Fraction(1, 2), None, Sheet(("x",), 2))
    for sheet in [{**rated["sheet"], "extra": 1}, {"runes": ["x"], "level": 2}, ["x", 2]]:
        assert nested(msgpack.packb({**rated, "sheet": sheet})) is None
    assert packed_decoder("codec.Priced", 0) is None


def test_packed_decoder_refuses_a_defaulted_field_swapped_for_an_unknown_key() -> None:
    """Every registered event class with a defaulted field (QA, issue 14): its record with that
    field dropped and an unknown key in its place (the map's size unchanged) is left to the
    codec, which refuses it, as ``verify`` does; the fold never builds it with the default."""
    from tablelog import systems
    from tablelog.events.core import registered_types

    for name in systems.names():
        systems.get(name)  # its events are registered
    checked = 0
    for kind, cls in sorted(registered_types().items()):
        defaulted = [f for f in attrs.fields(cls) if f.default is not attrs.NOTHING]
        build = packed_decoder(kind, cls.VERSION)
        if not defaulted or build is None:
            continue
        values = {f.name: f.default for f in attrs.fields(cls) if f.default is not attrs.NOTHING}
        if any(isinstance(v, attrs.Factory) for v in values.values()):
            continue
        try:
            made = cls(**{f.name: values.get(f.name, _sample(f.type)) for f in attrs.fields(cls)})
            data = to_record(made)[2]
        except Exception:  # noqa: BLE001 - a validator wants other values: not this test's
            continue
        assert build(msgpack.packb(data)) == made, kind
        swapped = {k: v for k, v in data.items() if k != defaulted[0].name}
        swapped[defaulted[0].name[:-1] + "_"] = data[defaulted[0].name]
        assert build(msgpack.packb(swapped)) is None, kind
        with pytest.raises(CodecError, match="extra fields found"):
            from_record(kind, cls.VERSION, swapped)
        checked += 1
    assert checked >= 30, checked  # every system has such classes (37 at d3bf5e4)


def _sample(tp: Any) -> Any:
    """A value of type ``tp`` (an event's field) for the swapped-key test above."""
    import typing

    plain = {str: "a", int: 1, bool: True, float: 1.5, bytes: b"x", Fraction: Fraction(1, 2)}
    if tp in plain:
        return plain[tp]
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is tuple:
        return ()
    if origin is list:
        return []
    if origin is dict:
        return {}
    if type(None) in args:
        return None
    if isinstance(tp, type) and attrs.has(tp):
        return tp(**{f.name: _sample(f.type) for f in attrs.fields(tp)})
    raise TypeError(tp)


@pytest.mark.parametrize(
    "log", sorted((Path(__file__).parents[1] / "data" / "frozen" / "format-2").glob("*.tlog"))
)
def test_packed_decoder_agrees_with_the_codec_on_every_frozen_record(log: Path) -> None:
    """Every record of every frozen real-system log: the packed decoder builds the codec's
    event, or leaves the record to it (an older version, a nested class)."""
    Session(str(log), snapshots=False).state()  # its system's events are registered
    reader = LogFile(str(log))
    built = 0
    for _, env, *_ in reader.records(fold=True):
        data = msgpack.unpackb(env.data)
        build = packed_decoder(env.type, env.v)
        made = None if build is None else build(env.data)
        if made is not None:
            built += 1
            assert made == decoder(env.type, env.v)(data)
    assert built > 0


@event("codec.Priced")
@attrs.frozen
class Priced(Event):
    """A test-only event of plain fields (a Fraction, an optional one): it has a packed
    decoder."""

    name: str
    rate: Fraction
    floor: Fraction | None = None


@event("codec.Checked")
@attrs.frozen
class Checked(Event):
    """A test-only event whose attrs ``__init__`` validates (its fast path calls it)."""

    name: str
    count: int = attrs.field(validator=attrs.validators.ge(0), kw_only=True)


def test_codec_fast_path_of_a_validated_class_leaves_refusals_to_cattrs() -> None:
    """A class with a validator is built through its own ``__init__`` (keywords, so kw_only
    fields work); data the validator refuses is a CodecError, not an escaping exception."""
    assert from_record("codec.Checked", 1, {"name": "a", "count": 3}) == Checked("a", count=3)
    with pytest.raises(CodecError, match="data does not fit the event"):
        from_record("codec.Checked", 1, {"name": "a", "count": -1})


def test_codec_falls_back_to_cattrs_but_never_converts_stored_values() -> None:
    """Data the fast path does not take goes through cattrs, which takes an int for a float but
    never turns text or a float or a bool into an int (a stored "999" is no damage of 999)."""
    loose = {"name": "a", "count": 5, "ratio": 1, "cards": ["x"], "rolls": [], "notes": {}}
    assert from_record("codec.Sampled", 1, loose) == Sampled("a", 5, 1.0, ("x",), [], {})
    for count in ("5", 5.0, True, "many"):
        with pytest.raises(CodecError, match=r"data does not fit the event: .*\$\.count"):
            from_record("codec.Sampled", 1, {**loose, "count": count})
    with pytest.raises(CodecError, match=r"\$\.name"):
        from_record("codec.Sampled", 1, {**loose, "name": 12345})


def test_the_codec_never_converts_a_string_or_a_map_into_a_list() -> None:
    """QA (issue 14): a tuple or list field given a string or a map, a dict field given a list,
    is refused by the codec (cattrs used to make a string a tuple of its characters and a map
    a tuple of its keys), and the packed decoder leaves it to the codec."""
    loose = {"name": "a", "count": 5, "ratio": 1.0, "cards": ["x"], "rolls": [], "notes": {}}
    for field, value in [("cards", "xy"), ("cards", {"x": 1}), ("rolls", "1"), ("notes", [])]:
        data = {**loose, field: value}
        with pytest.raises(CodecError, match=rf"data does not fit the event: .*\$\.{field}"):
            from_record("codec.Sampled", 1, data)
        build = packed_decoder("codec.Sampled", 1)
        assert build is not None and build(msgpack.packb(data)) is None
    assert from_record("codec.Sampled", 1, loose).cards == ("x",)
