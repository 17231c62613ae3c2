"""Real-system benchmark campaigns: a long log of each game system, decided by its own commands.

A system's campaign is its long campaign script (tests/data/campaigns/SYSTEM.txt: every event
type of the system, notes, undo and redo), run through the CLI once to capture the command each
line decides, then played as *chapters* until the log holds ``n`` events. ``DECIDED`` chapters
are decided by the system's deciders (:func:`tablelog.commands.core.decide`), each event checked
by its precondition and evolved, each on a fresh state of the log's header and its own seqs (so
its own dice), its cast renamed (``Valeros`` -> ``Valeros 3``, ``CASTS`` casts in turn, so the
folded state keeps a bounded number of entities); the log plays the decided chapters in turn
(deciding a million events would take an hour here, framing them takes a minute).

Undo and redo are decided as the session decides them: one marker per event of the latest
action. An undo that the script never redoes takes back its action for good, so chapters leave
that action and its undo out (a campaign's undone set would otherwise differ from the fold's
first guess and fold twice: docs/RELIABILITY.md).

A chapter is decided on its own state, not on the log's: the log replays (every evolver is
total), but ``verify``, which checks each event's precondition on the log's state, refuses it
where a chapter reuses what an earlier chapter left (a cast name, a card). A benchmark log, not
a played one; and in magicpunk's the folded discard pile collects every chapter's cards (a
played deck reshuffles at 54): the fold extends it in place, so a replay stays linear in the
log, but the preconditions that read it (``verify``'s) walk it. Deciding each chapter on the
log's own state would fix both (and cost an hour of deciding per million).

Usage: ``python bench/campaigns.py SYSTEM N OUT`` writes a log; :func:`campaign` caches them in
bench/.cache (not committed), keyed by the sources that decide them.
"""

from __future__ import annotations

import contextlib
import copy
import datetime
import functools
import hashlib
import io
import itertools
import os
import pickle
import sys
import tempfile
from pathlib import Path
from typing import Any

import attrs

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CACHE = HERE / ".cache"
sys.path.insert(0, str(ROOT))

from tablelog.cli.core import Env, Parsed, parse  # noqa: E402
from tablelog.cli.main import cli  # noqa: E402
from tablelog.cli.scripts import script_lines  # noqa: E402
from tablelog.commands.core import Redo, Undo, decide  # noqa: E402
from tablelog.events.codec import to_record  # noqa: E402
from tablelog.events.core import Redone, Undone  # noqa: E402
from tablelog.headers import initial_state  # noqa: E402
from tablelog.projections.core import State, check, evolve  # noqa: E402
from tablelog.session import Session  # noqa: E402
from tablelog.store.format import COMMAND_KEY, Header  # noqa: E402
from tablelog.store.log import LogFile, frame  # noqa: E402
from tablelog.systems import REGISTRY  # noqa: E402

SYSTEMS = tuple(REGISTRY)  # every registered system: each has tests/data/campaigns/SYSTEM.txt
CASTS = 8  # chapters' casts in turn: the folded state holds at most this many of each entity
DECIDED = 64  # chapters decided, each on its own seqs (its own dice); the log plays them in turn
START = datetime.datetime(2026, 11, 30)  # one command a second: times never go back (verify)


def _copied(value: Any, memo: Any = None, _deepcopy: Any = copy.deepcopy) -> Any:
    """``copy.deepcopy`` for the deciders' plain state data, five times faster (generation
    only: the deciders copy their state, and decide most of a chapter's time)."""
    try:
        return pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))
    except Exception:  # noqa: BLE001 - not plain data: the library's copy
        return _deepcopy(value, memo)


def script(system: str) -> Path:
    return ROOT / "tests" / "data" / "campaigns" / f"{system}.txt"


@functools.cache
def captured(system: str) -> tuple[Header, list[object], State]:
    """Run the system's campaign script through the CLI on a scratch log; return its header,
    the command of every line after ``init`` (those a later undo takes back for good left out),
    and the final state (its entity names are the cast)."""
    commands: list[object] = []
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / f"{system}.tlog")
        env = Env(log_path=path, actor="gm", in_run=True, parse_only=True)
        for _, argv in script_lines(script(system).read_text(encoding="utf-8")):
            with contextlib.redirect_stdout(io.StringIO()):
                parsed = parse(cli, argv, env)
            if isinstance(parsed, Parsed):  # each appending line's record, run here
                commands.append(parsed.command)
                env.session().execute(parsed.command)
        session = Session(path)
        return session.header, _kept(commands), session.state()


def _kept(commands: list[object]) -> list[object]:
    """Leave out each undo not followed by a redo, and the command it takes back."""
    kept: list[object] = []
    for i, command in enumerate(commands):
        following = commands[i + 1] if i + 1 < len(commands) else None
        if isinstance(command, Undo) and not isinstance(following, Redo):
            assert command.target is None, "the campaigns undo the latest action"
            kept.pop()
        else:
            kept.append(command)
    return kept


def renamed(command: object, names: dict[str, str]) -> object:
    """Return ``command`` with every field naming a cast member (or a tuple of them) renamed."""
    changes: dict[str, Any] = {}
    for field in attrs.fields(type(command)):
        value = getattr(command, field.name)
        if isinstance(value, str) and value in names:
            changes[field.name] = names[value]
        elif isinstance(value, tuple) and any(isinstance(v, str) and v in names for v in value):
            changes[field.name] = tuple(names.get(v, v) if isinstance(v, str) else v for v in value)
    return attrs.evolve(command, **changes) if changes else command


def chapter_events(
    header: Header, commands: list[object], cast: list[str], chapter: int, seq: int
) -> list[list[Any]]:
    """Decide one chapter from seq ``seq`` on; return each command's events."""
    names = {name: f"{name} {chapter % CASTS}" for name in cast}
    state = initial_state(header)
    state.seq = seq
    decided: list[list[Any]] = []
    last: list[int] = []  # the seqs of the latest action
    for command in commands:
        if isinstance(command, Undo):
            events: list[Any] = [Undone(target=s, reason=command.reason) for s in last]
            undone = last  # redo restores it: the state is the same as before the undo
        elif isinstance(command, Redo):
            events = [Redone(target=s) for s in undone]
        else:
            events = decide(state, renamed(command, names))
            for event in events:
                check(state, event)
                evolve(state, event)
            last = list(range(state.seq + 1, state.seq + 1 + len(events)))
        state.seq += len(events)
        decided.append(events)
    return decided


def decided_chapters(system: str) -> list[list[list[tuple[str, int, Any]]]]:
    """Decide ``DECIDED`` chapters (each on its own seq: its own dice); return each command's
    records ``(type, v, data)``, undo/redo targets counted from the chapter's start."""
    header, commands, final = captured(system)
    cast = [*final.characters, *final.items]
    chapters, seq = [], 0
    library, copy.deepcopy = copy.deepcopy, _copied  # type: ignore[assignment]
    try:
        for chapter in range(DECIDED):
            decided = chapter_events(header, commands, cast, chapter, seq)
            chapters.append([[_relative(to_record(e), seq) for e in events] for events in decided])
            seq += sum(len(events) for events in decided)
    finally:
        copy.deepcopy = library
    return chapters


def _relative(record: tuple[str, int, Any], start: int) -> tuple[str, int, Any]:
    kind, version, data = record
    if kind in (Undone.TYPE, Redone.TYPE):
        data = {**data, "target": data["target"] - start}
    return kind, version, data


def write_campaign(system: str, n: int, out: Path) -> None:
    """Write a campaign log of ``n`` events (whole commands: it ends before the first command
    that would pass ``n``) at ``out``: the decided chapters in turn."""
    header = captured(system)[0]
    chapters = decided_chapters(system)
    out.unlink(missing_ok=True)
    log = LogFile.create(str(out), attrs.evolve(header, session_id=f"bench-{system}-{n}"))
    pos = log.start
    assert pos is not None
    chunks: list[bytes] = []
    moment = 0
    with open(out, "ab") as f:
        for chapter in itertools.cycle(chapters):
            start = pos.seq
            for command in chapter:
                if pos.seq + len(command) > n:
                    f.write(b"".join(chunks))
                    return
                at = (START + datetime.timedelta(seconds=moment)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
                moment += 1
                envelopes = [
                    {
                        "type": kind,
                        "v": version,
                        "at": at,
                        "actor": "gm",
                        "data": _absolute(kind, data, start),
                        COMMAND_KEY: pos.seq + 1,
                    }
                    for kind, version, data in command
                ]
                record, pos = frame(envelopes, pos)
                chunks.append(record)
            if len(chunks) > 5000:
                f.write(b"".join(chunks))
                chunks.clear()


def _absolute(kind: str, data: Any, start: int) -> Any:
    if kind in (Undone.TYPE, Redone.TYPE):
        return {**data, "target": data["target"] + start}
    return data


def campaign(system: str, n: int) -> Path:
    """Return the cached campaign log of ``n`` events (made when missing or stale)."""
    digest = hashlib.blake2b(digest_size=8)  # what decides the events, not what reads them
    deciding = [
        p
        for layer in ("commands", "events", "rules", "projections")
        for p in sorted((ROOT / "tablelog" / layer).rglob("*"))
        if p.is_file() and p.suffix in (".py", ".csv", ".json", ".toml")
    ]
    for path in [*deciding, script(system), Path(__file__)]:
        digest.update(path.read_bytes())
    out = CACHE / f"{system}-{n}-{digest.hexdigest()}.tlog"
    if not out.exists():
        CACHE.mkdir(exist_ok=True)
        for old in CACHE.glob(f"{system}-{n}-*.tlog"):
            old.unlink()
        tmp = out.with_suffix(".tmp")
        write_campaign(system, n, tmp)
        os.replace(tmp, out)
    return out


if __name__ == "__main__":
    write_campaign(sys.argv[1], int(sys.argv[2]), Path(sys.argv[3]))
