"""Property: for random byte-level and structure-level edits of a snapshot by someone without
the user's key, every command's output (reads and appends) equals its output without a snapshot
(issue 13, item 1)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablelog.store.snapshot import seal
from tests.support import toy
from tests.support.snapshots import (
    FIXED,
    append_outputs,
    checkpointed_log,
    outputs,
    snapshot_of,
    user_key,
)

toy.install()

SETTINGS = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)

byte_edits = st.lists(
    st.tuples(
        st.sampled_from(["flip", "insert", "delete", "cut", "grow"]),
        st.floats(0, 1),
        st.integers(1, 255),
    ),
    min_size=1,
    max_size=4,
)

plain = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.text(max_size=8)
    | st.binary(max_size=24),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)


def byte_edit(good: bytes, edits: list[tuple[str, float, int]]) -> bytes:
    """Apply byte-level edits: flip a bit, insert or delete a byte, cut or grow the file."""
    data = bytearray(good)
    for kind, where, value in edits:
        at = min(int(where * len(data)), max(len(data) - 1, 0))
        if kind == "flip" and data:
            data[at] ^= 1 << (value % 8)
        elif kind == "insert":
            data.insert(at, value)
        elif kind == "delete" and data:
            del data[at]
        elif kind == "cut":
            del data[at:]
        else:
            data += bytes([value]) * value
    return bytes(data)


def paths(value: Any, here: tuple = ()) -> list[tuple]:
    """Every path (keys and indexes) to a node of a decoded msgpack value."""
    found = [here]
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, (*here, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += paths(item, (*here, i))
    return found


def replaced(value: Any, path: tuple, new: Any) -> Any:
    """``value`` with the node at ``path`` replaced by ``new``."""
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: replaced(value[head], rest, new)}
    return [replaced(v, rest, new) if i == head else v for i, v in enumerate(value)]


@pytest.fixture(scope="module")
def module_env() -> Any:
    """Environment settings for the whole module (monkeypatch is per function)."""
    with pytest.MonkeyPatch.context() as patch:
        yield patch


@pytest.fixture(scope="module")
def played(
    tmp_path_factory: pytest.TempPathFactory,
    module_env: pytest.MonkeyPatch,
) -> tuple[Path, bytes, Any, Any, str]:
    """A checkpointed log, its user's snapshot, every command's output without one, and the
    user's cache directory (each test goes on using it)."""
    cache = str(tmp_path_factory.mktemp("cache"))
    module_env.setenv("XDG_CACHE_HOME", cache)
    module_env.setenv("TABLELOG_SNAPSHOT_EVERY", "2")
    log = checkpointed_log(tmp_path_factory.mktemp("played"))
    good = snapshot_of(log).read_bytes()
    return log, good, outputs(log, None), append_outputs(log, None), cache


@pytest.fixture(autouse=True)
def same_cache(played: tuple, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test reads and writes the played log's cache directory, with checkpoints every 2."""
    monkeypatch.setenv("XDG_CACHE_HOME", played[4])
    monkeypatch.setenv("TABLELOG_SNAPSHOT_EVERY", "2")


@SETTINGS
@given(edits=byte_edits)
def test_byte_edits_of_a_snapshot_change_no_output(played: tuple, edits: list) -> None:
    """Flipped bits, inserted and deleted bytes, a cut or a grown file: the same outputs."""
    log, good, reads, appends, _ = played
    hostile = byte_edit(good, edits)
    assert outputs(log, hostile) == reads
    assert append_outputs(log, hostile) == appends


@SETTINGS
@given(data=st.data(), new=plain, mac=st.sampled_from(["kept", "zero", "other key"]))
def test_structure_edits_of_a_snapshot_change_no_output(
    played: tuple, data: st.DataObject, new: Any, mac: str
) -> None:
    """Any node of the decoded snapshot (a checkpoint's seq, anchor, markers, state, …)
    replaced by any value and re-encoded; the MAC kept, zeroed, or made under another key."""
    log, good, reads, appends, _ = played
    body = msgpack.unpackb(good[FIXED:], raw=False, strict_map_key=False)
    path = data.draw(st.sampled_from(paths(body)))
    edited = msgpack.packb(replaced(body, path, new), use_bin_type=True)
    if mac == "other key":
        hostile = seal(edited, bytes(reversed(user_key())))
    else:
        sealed = seal(edited, user_key())
        keep = good[FIXED - 32 : FIXED] if mac == "kept" else bytes(32)
        hostile = sealed[: FIXED - 32] + keep + sealed[FIXED:]
    assert outputs(log, hostile) == reads
    assert append_outputs(log, hostile) == appends
