"""Signed records (issue 13, what a log can prove): `init --sign` starts a roster of Ed25519
keys in the log; every record an actor with a key appends is signed with it, the private key
kept in the user's own config directory; `verify` checks every signature against the roster,
reports records by actors without a key, and refuses roster changes not made by its owner."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tablelog.session import now_utc
from tablelog.store.format import Position, chain_hash, pack_record
from tablelog.store.keys import key_path
from tablelog.store.log import LogFile
from tests.support import toy
from tests.support.cli import invoke, ok
from tests.support.forge import append_forged

toy.install()


@pytest.fixture
def homes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Each player's own config directory (their machine's keys)."""
    return {name: str(tmp_path / f"home-{name}") for name in ("GM", "Ann", "Bob", "Mallory")}


def as_player(monkeypatch: pytest.MonkeyPatch, homes: dict[str, str], name: str) -> None:
    """Run the next commands on ``name``'s machine (their private keys)."""
    monkeypatch.setenv("XDG_CONFIG_HOME", homes[name])


def play(log: Path, name: str, *args: str) -> str:
    """A command as ``name`` that must succeed."""
    return ok(log, *args, actor=name)


@pytest.fixture
def table(tmp_path: Path, homes: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> Path:
    """A signed log: the GM's key (#1), a note (#2), Ann's key added by the GM (#3), Ann's note
    (#4), Bob's note without a key (#5)."""
    log = tmp_path / "s.tlog"
    as_player(monkeypatch, homes, "Ann")
    ann = play(log, "Ann", "key", "new").split()[4]
    as_player(monkeypatch, homes, "GM")
    out = play(log, "GM", "init", "--system", "toy", "--sign")
    assert out.splitlines()[1].startswith("#1 core.KeyAdded GM ")
    play(log, "GM", "note", "session one")
    play(log, "GM", "key", "add", "Ann", ann)
    as_player(monkeypatch, homes, "Ann")
    play(log, "Ann", "note", "Ann's ruling")
    as_player(monkeypatch, homes, "Bob")
    play(log, "Bob", "note", "Bob has no key")
    return log


def test_a_signed_log_verifies_and_reports_actors_without_a_key(table: Path) -> None:
    """Four records signed by two keys (the GM's, Ann's); Bob's #5 reported; exit 0."""
    lines = ok(table, "verify").splitlines()
    assert lines[2].startswith("signed: 4 records by 2 keys in the roster (owner GM")
    assert lines[3] == "not signed (no key in the roster): Bob #5"
    sigs = [len(env.get("sig", b"")) for _, env, *_ in LogFile(str(table)).records()]
    assert sigs == [64, 64, 64, 64, 0]


def test_private_keys_stay_private(
    table: Path, homes: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The key file is 0600 in a 0700 directory of the player's home, not in the log's folder,
    and the log holds only public keys."""
    as_player(monkeypatch, homes, "GM")
    path = key_path("GM")
    assert path is not None and path.startswith(homes["GM"])
    assert os.stat(path).st_mode & 0o777 == 0o600
    assert os.stat(os.path.dirname(path)).st_mode & 0o777 == 0o700
    assert Path(path).read_bytes() not in table.read_bytes()
    assert sorted(p.name for p in table.parent.iterdir() if p.name.startswith("s.")) == ["s.tlog"]


def test_only_the_owner_adds_keys(
    table: Path, homes: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ann adding Bob's key: CORE-KEY, exit 1, the log unchanged."""
    as_player(monkeypatch, homes, "Bob")
    bob = play(table, "Bob", "key", "new").split()[4]
    as_player(monkeypatch, homes, "Ann")
    before = table.read_bytes()
    result = invoke(table, "key", "add", "Bob", bob, actor="Ann")
    assert (result.exit_code, result.stderr) == (
        1,
        "error: CORE-KEY: only the roster's owner 'GM' adds keys, not 'Ann'\n",
    )
    assert table.read_bytes() == before


@pytest.mark.rule("CORE-KEY")
def test_an_actor_with_a_key_appends_only_with_that_key(
    table: Path, homes: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--actor Ann` on a machine without Ann's key (Mallory's), or with another key for Ann
    (Bob's), and the GM away from his: CORE-KEY, exit 1, the log unchanged (it was appended
    unsigned, and verify refused the log from that record on). A dry run shows; Ann's own
    machine appends, signed; Bob, who has no key in the roster, still appends unsigned."""
    before = table.read_bytes()
    as_player(monkeypatch, homes, "Mallory")
    ann = LogFile(str(table)).scan_all()[2].data["public_key"]
    result = invoke(table, "note", "Ann gives Mallory her sword", actor="Ann")
    assert (result.exit_code, result.stdout, result.stderr) == (
        1,
        "",
        f"error: CORE-KEY: the log's roster has a key for 'Ann' ({ann[:16]}…) but this machine "
        "holds none: its records would fail verify; append from the machine that holds that "
        "key, or have the roster's owner 'GM' add a new one (tablelog --actor Ann key new "
        "prints it)\n",
    )
    result = invoke(table, "note", "the GM's ruling", actor="GM")
    assert result.exit_code == 1 and result.stderr.endswith(
        "but this machine holds none: its records would fail verify; append from the machine "
        "that holds that key (the owner's key adds every other)\n"
    )
    as_player(monkeypatch, homes, "Bob")
    other = play(table, "Ann", "key", "new").split()[4]
    result = invoke(table, "note", "x", actor="Ann")
    assert result.exit_code == 1 and result.stderr.endswith(
        f"but this machine's key for it is {other}: its records would fail verify; append from "
        f"the machine that holds that key, or have the roster's owner 'GM' add this one "
        f"(tablelog --actor GM key add Ann {other})\n"
    )
    assert ok(table, "note", "--dry-run", "x", actor="Ann").startswith("dry run: nothing")
    assert table.read_bytes() == before
    assert play(table, "Bob", "note", "Bob again").startswith("#6 core.Noted")
    as_player(monkeypatch, homes, "Ann")
    assert play(table, "Ann", "note", "signed").startswith("#7 core.Noted")
    assert ok(table, "verify").splitlines()[2].startswith("signed: 5 records by 2 keys")


def test_impersonation_is_found(table: Path) -> None:
    """Mallory appends as Ann with a hostile tool (the CLI refuses: CORE-KEY above), every CRC
    and hash right but no signature by Ann's key: verify exit 1 at #6."""
    append_forged(table, ("core.Noted", "Ann", {"text": "Ann gives Mallory her sword"}))
    result = invoke(table, "verify")
    assert result.exit_code == 1
    offset = LogFile(str(table)).scan_all()[5].offset
    assert result.stderr == (
        f"error: {table}: record #6 at byte {offset}: no signature by "
        "'Ann''s key (forged or edited)\n"
    )


def rewritten(
    log: Path,
    edit: dict[int, dict],
    envelope: dict[int, dict] | None = None,
) -> None:
    """Rewrite the log as a careful forger without keys: the records' data replaced where
    ``edit`` says (seq -> data), their envelope fields where ``envelope`` says (a field set to
    None is dropped), every CRC and chain hash recomputed, signatures kept."""
    reader = LogFile(str(log))
    reader.open()
    assert reader.start is not None
    data, position = log.read_bytes()[: reader.start.span[1]], reader.start  # type: ignore[index]
    for seq, env, *_ in list(reader.records()):
        full = {**env, "data": edit.get(seq, env["data"]), "prev": position.prev}
        for key, value in (envelope or {}).get(seq, {}).items():
            full.pop(key) if value is None else full.update({key: value})
        record = pack_record(full)  # the old signature stays, the last key
        start = position.span[1]  # type: ignore[index]
        position = Position(seq, chain_hash(record[8:]), (start, start + len(record)))
        data += record
    log.write_bytes(data)


def test_an_actor_that_differs_only_by_an_invisible_character_is_found(table: Path) -> None:
    """Ann's #4 rewritten by `Ann\\u200b` (a zero-width space: it looks exactly like Ann),
    with new text, no signature, every CRC and hash recomputed: once listed as an actor
    without a key (exit 0), now refused as an actor entry refuses: exit 1 naming #4; and
    `log` shows the escape, not a second Ann."""
    rewritten(
        table,
        {4: {"text": "Ann gives Mallory her sword"}},
        {4: {"actor": "Ann\u200b", "sig": None}},
    )
    result = invoke(table, "verify")
    offset = LogFile(str(table)).scan_all()[3].offset
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"error: {table}: record #4 at byte {offset}: its actor is one that tablelog refuses "
        "at entry (CORE-NAME: the actor cannot hold control characters: 'Ann\\u200b'; it "
        "shows as 'Ann'); a crafted record\n"
    )
    assert " Ann\\u200b core.Noted 'Ann gives Mallory her sword'" in ok(table, "log")


def test_a_name_that_entry_refuses_is_found_by_verify(table: Path) -> None:
    """A character named `Ann\\u2060` (a word joiner) forged into the log: verify exit 1
    naming the name (CORE-NAME), where `toy add` would refuse it at entry."""
    append_forged(table, ("toy.CounterAdded", "GM", {"name": "Ann\u2060", "points": 3}))
    result = invoke(table, "verify")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"error: {table}: CORE-NAME: a character's name cannot hold control characters: "
        "'Ann\\u2060', which tablelog refuses at entry: a crafted record\n"
    )


def test_an_edited_signed_record_is_found(table: Path) -> None:
    """The GM's note #2 rewritten with every CRC and hash recomputed (verify's chain is happy):
    its signature no longer matches: exit 1 at #2."""
    rewritten(table, {2: {"text": "session one: Mallory wins"}})
    result = invoke(table, "verify")
    assert result.exit_code == 1
    assert "record #2 at byte" in result.stderr
    assert "a signature that is not by 'GM''s key (forged or edited)" in result.stderr


def test_a_key_added_by_someone_else_is_found(table: Path) -> None:
    """Mallory appends a `core.KeyAdded` for herself with a hostile tool: not the owner's:
    exit 1 naming it."""
    append_forged(
        table, ("core.KeyAdded", "Mallory", {"actor": "Mallory", "public_key": "ab" * 32})
    )
    result = invoke(table, "verify")
    assert result.exit_code == 1
    assert "record #6 at byte" in result.stderr
    assert "a key added by 'Mallory': only the roster's owner 'GM' adds keys" in result.stderr


def test_a_whole_log_forged_under_a_new_roster_shows_another_owner_key(
    table: Path, tmp_path: Path, homes: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Signatures prove who appended relative to the roster's first key: a log made anew by
    Mallory as 'GM' with her own key verifies, but `verify` shows the owner's key, which differs
    from the real GM's (post it, or the head, to tell them apart)."""
    real = ok(table, "verify").splitlines()[2]
    as_player(monkeypatch, homes, "Mallory")
    fake = tmp_path / "fake.tlog"
    play(fake, "GM", "init", "--system", "toy", "--sign")
    forged = ok(fake, "verify").splitlines()[2]
    assert real.split("owner GM")[1] != forged.split("owner GM")[1]


def test_a_signed_atomic_run_signs_every_record(
    table: Path, homes: dict[str, str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A `run --atomic` of a signed actor writes one batch whose every record is signed."""
    as_player(monkeypatch, homes, "Ann")
    script = tmp_path / "s.txt"
    script.write_text("toy add a 5\ntoy spend a 2\n")
    play(table, "Ann", "run", "--atomic", str(script))
    assert ok(table, "verify").splitlines()[2].startswith("signed: 6 records by 2 keys")


def test_unsigned_logs_stay_as_they_were(tmp_path: Path) -> None:
    """A log without a roster: no signature anywhere, verify prints no signature line."""
    log = tmp_path / "u.tlog"
    ok(log, "init", "--system", "toy")
    ok(log, "note", "x")
    assert len(ok(log, "verify").splitlines()) == 2
    assert all("sig" not in env for _, env, *_ in LogFile(str(log)).records())


@pytest.mark.rule("CORE-KEY")
def test_an_undo_of_a_key_is_refused(
    table: Path, homes: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Mallory's `undo 1` (the GM's key) and the GM's own `undo 3` (Ann's key) are refused with
    one CORE-KEY line each, and the log is unchanged: an undo never takes a key out of the
    roster."""
    before = table.read_bytes()
    for name, seq in (("Mallory", "1"), ("GM", "3")):
        as_player(monkeypatch, homes, name)
        result = invoke(table, "undo", seq, actor=name)
        assert (result.exit_code, result.stdout) == (1, "")
        assert result.stderr == (
            f"error: CORE-KEY: #{seq} adds a key to the log's roster of signing keys, which an "
            "undo never takes out: replace a key by adding a new one for its actor (tablelog "
            "key add)\n"
        )
        assert table.read_bytes() == before


@pytest.mark.rule("CORE-KEY")
def test_a_forged_undo_of_the_first_key_does_not_hand_over_the_roster(
    table: Path, homes: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Mallory appends an undo of #1 (the GM's key) with a hostile tool and then tries to add
    her own key as if it were the first: refused (CORE-KEY); verify still names the GM as the
    roster's owner with the GM's key and reports Mallory's marker unsigned."""
    before = ok(table, "verify").splitlines()[2]
    append_forged(table, ("core.Undone", "Mallory", {"target": 1, "reason": ""}))
    as_player(monkeypatch, homes, "Mallory")
    result = invoke(table, "key", "add", actor="Mallory")
    assert result.exit_code == 1
    assert result.stderr.startswith("error: CORE-KEY: only the roster's owner ")
    lines = ok(table, "verify").splitlines()
    assert lines[2] == before
    assert lines[3] == "not signed (no key in the roster): Bob #5; Mallory #6"


def test_a_signed_log_exports_and_imports_byte_for_byte(table: Path, tmp_path: Path) -> None:
    """`log --json` writes each signature as 128 hex digits; `export` then `import` rebuilds the
    signed log byte for byte, and it verifies with its signatures."""
    import json

    lines = [json.loads(line) for line in ok(table, "log", "--json").splitlines()]
    assert [len(line.get("sig", "")) for line in lines] == [128, 128, 128, 128, 0]
    out = tmp_path / "s.jsonl"
    ok(table, "export", "-o", str(out))
    copy = tmp_path / "copy.tlog"
    ok(table, "import", str(out), "--log", str(copy))
    assert copy.read_bytes() == table.read_bytes()
    assert ok(copy, "verify").splitlines()[2].startswith("signed: 4 records by 2 keys")


@pytest.mark.rule("CORE-IMPORT")
def test_a_forged_signed_export_with_its_chain_recomputed_is_refused(
    table: Path, tmp_path: Path
) -> None:
    """Mallory rewrites Ann's signed note (#4, line 5) in an export and recomputes every chain
    hash after it and the header's: the chain holds, but import checks signatures as verify
    does and refuses line 5 (it imported, and only a later verify found it); nothing created."""
    import json

    from tablelog.exports.importer import _header
    from tablelog.exports.jsonl import dump, envelope_of, pack

    lines = ok(table, "export").splitlines()
    _, head_bytes, _, _ = _header(lines[0])
    chain, forged = chain_hash(head_bytes), []
    for text in lines[1:]:
        line = json.loads(text)
        if line["seq"] == 4:
            assert line["data"]["text"] == "Ann's ruling"
            line["data"]["text"] = "Ann concedes the sword"
        line["prev"] = chain.hex()
        chain = chain_hash(pack(envelope_of(dict(line))))
        forged.append(dump(line))
    head = json.loads(lines[0])
    head["header"]["chain"] = chain.hex()
    source = tmp_path / "forged.jsonl"
    source.write_text("\n".join([dump(head), *forged]) + "\n", encoding="utf-8")
    offset = next(o for seq, _, o, *_ in LogFile(str(table)).records() if seq == 4)
    result = invoke(tmp_path / "copy.tlog", "import", str(source))
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"error: CORE-IMPORT: {source} line 5: record #4 at byte {offset}: a signature that "
        "is not by 'Ann''s key (forged or edited); nothing created\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "forged.jsonl",
        "home-Ann",
        "home-GM",
        "s.tlog",
    ]


def _anew(table: Path, tmp_path: Path, *steps: tuple[str, ...]) -> None:
    """Mallory makes the log anew under its own header (same session id), runs ``steps`` as
    'GM' on her machine, and puts it in the log's place."""
    reader = LogFile(str(table))
    reader.open()
    assert reader.header is not None
    fake = tmp_path / "fake.tlog"
    LogFile.create(str(fake), reader.header)
    for step in steps:
        play(fake, "GM", *step)
    os.replace(fake, table)


@pytest.mark.parametrize(
    ("steps", "now"),
    [
        ((("note", "session one"),), "it has no roster"),
        ((("key", "add"), ("note", "session one")), "its roster's owner key is "),
    ],
    ids=["signatures stripped", "a new roster"],
)
def test_a_roster_stripped_or_replaced_is_found_by_who_verified_it_before(
    table: Path,
    tmp_path: Path,
    homes: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    steps: tuple[tuple[str, ...], ...],
    now: str,
) -> None:
    """Ann verifies the signed log (her machine pins the GM's key for its session). Mallory
    then writes the log anew under the same header, unsigned or under her own key as 'GM':
    `verify` on its own cannot tell, but Ann's next `verify` exits 1 naming the pinned key and
    what the log has now; Bob, who never verified it, is told nothing (trust on first use)."""
    as_player(monkeypatch, homes, "Ann")
    gm_key = ok(table, "verify").splitlines()[2].split("key ")[1].split(")")[0]
    assert ok(table, "verify").startswith("ok: ")  # the pin matches: nothing to say
    as_player(monkeypatch, homes, "Mallory")
    _anew(table, tmp_path, *steps)
    as_player(monkeypatch, homes, "Ann")
    result = invoke(table, "verify")
    assert (result.exit_code, result.stdout) == (1, "")
    session = LogFile(str(table)).open()
    assert result.stderr.startswith(
        f"error: {table}: this machine verified session {session.session_id} signed under the "
        f"roster owner's key {gm_key}, but {now}"
    )
    assert (
        "the log was made anew or its signatures stripped (if the table really began a new "
        f"roster, remove {homes['Ann']}/tablelog/roster-" in result.stderr
    )
    as_player(monkeypatch, homes, "Bob")
    assert ok(table, "verify").startswith("ok: ")


def test_unsigned_records_are_summed_up_in_one_short_line(table: Path) -> None:
    """Bob appends 30 more unsigned notes and 22 players one each: verify names Bob's first
    three seqs and his count, 19 more players, and counts the records of the other 3 (a long
    campaign where only the GM has a key once printed every seq on one line)."""
    writer = LogFile(str(table))
    writer.scan_all()
    assert writer.end is not None
    actors = ["Bob"] * 30 + [f"P{i}" for i in range(22)]
    with writer.lock():
        writer.append(
            [
                {
                    "type": "core.Noted",
                    "v": 1,
                    "at": now_utc(),
                    "actor": actor,
                    "data": {"text": "x"},
                    "cmd": 6 + i,
                }
                for i, actor in enumerate(actors)
            ],
            writer.end,
            locked=True,
        )
    players = "; ".join(f"P{i} #{36 + i}" for i in range(19))
    assert ok(table, "verify").splitlines()[3] == (
        f"not signed (no key in the roster): Bob #5, #6, #7 … (31 records); {players}; "
        "3 records by other actors"
    )
