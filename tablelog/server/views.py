"""What each API route answers, as plain data, redacted for the seat (SERVER.md §3-4).

The same read models as the CLI (``state --json``, ``log --json``, ``history --json``) through a
:class:`~tablelog.server.redact.Viewer`; commands through the CLI's own parser
(:meth:`Table.run_line`) with the seat's permissions checked before a command is decided.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, TypeVar

import attrs

from tablelog import actions, systems
from tablelog.commands.core import (
    AddNote,
    AddSeat,
    OpenSession,
    Redo,
    RevokeSeat,
    RollDice,
    RotateSeat,
    Say,
    Undo,
)
from tablelog.events.core import MARKERS, READERS, SEAT_SECRETS, SEAT_TYPES, event_class
from tablelog.lang import params_of, reader, say
from tablelog.projections import history as read_models
from tablelog.projections.core import undone_after
from tablelog.refusals import Refused
from tablelog.rules.core import RuleViolation
from tablelog.server import trust
from tablelog.server.grammar import Usage, parse_line
from tablelog.server.redact import Viewer, unseen_draws
from tablelog.server.tables import Refusal, Seat, Table, token_hash
from tablelog.session import Outcome
from tablelog.text import Listed, Term, msg

_SEAT_FIELDS = {
    kind: {f.name for f in attrs.fields(event_class(kind))}  # type: ignore[arg-type]
    for kind in SEAT_TYPES
}
T = TypeVar("T")
_ZONE = re.compile(r"[A-Za-z][A-Za-z_]*(?:/[A-Za-z0-9][A-Za-z0-9_+-]*){0,2}")
STREAM_LOOK_S = 0.5  # a stream looks at the store at least this often (else the watcher wakes it)

__all__ = [
    "state",
    "entity",
    "log",
    "history",
    "command",
    "stream_lines",
    "stream_texts",
    "add_seat",
    "revoke_seat",
    "record_line",
    "authorizer",
    "report",
]


def _viewer(table: Table, seat: Seat) -> Viewer:
    return viewer_of(table, seat, table.state())


def viewer_of(table: Table, seat: Seat, state: Any) -> Viewer:
    """The seat's viewer on ``state``; every enemy the log ever added stays an enemy to it, and
    the records only other seats read stay unread, their undo and redo markers too."""
    if seat.role == "gm":
        return Viewer.of(seat.role, seat.characters, state, frozenset(), seat.name)
    unread = frozenset(
        seq
        for seq, (actor, readers) in table.restricted().items()
        if actor != seat.name and seat.name not in readers
    )
    return Viewer.of(seat.role, seat.characters, state, table.enemies(), seat.name, unread)


def record_line(rec: Any, undone: bool) -> dict[str, Any]:
    """Return a record as one line of ``log --json``: every envelope key of a record a table
    read (:class:`~tablelog.server.tables.Stored`), else the fields a StoredRecord keeps."""
    from tablelog.exports.jsonl import record_line as line_of

    env = getattr(rec, "env", None)
    if env is None:
        env = {
            "seq": rec.seq,
            "type": rec.type,
            "v": rec.v,
            "at": rec.at,
            "actor": rec.actor,
            "data": rec.data,
        }
    return line_of(env, undone)


def shown(viewer: Viewer, line: dict[str, Any]) -> dict[str, Any] | None:
    """Return a log line redacted for ``viewer``, with ``text``: the event's one-line
    description as ``log`` prints it, made from the redacted data (so it hides what it hides);
    None for a record the seat does not read (another's whisper or secret roll)."""
    seen = viewer.record(line)
    if seen is None:
        return None
    line = dict(seen)
    line["text"] = _described(line)[0]
    return line


def _described(line: dict[str, Any], whole: Any = None) -> tuple[str, list[str]]:
    """Return the description and explanation (``history --json``'s ``event`` and ``explain``)
    of a redacted log line's event, made from its redacted data. When that data makes no event
    (hidden values it cannot hold): what its system says of such a record
    (:func:`~tablelog.texts.core.describes_redacted`: "Wolf appears (enemy)"), else the names
    of ``whole`` (the event before redaction) ``"NAMES (details hidden)"``, or ``""``; and
    ``[]``."""
    from tablelog.events.codec import CodecError, from_record

    data = line["data"]
    if line["type"] in SEAT_TYPES:  # its description needs no credential's hash
        data = {**{k: "" for k in SEAT_SECRETS if k in _SEAT_FIELDS[line["type"]]}, **data}
    words = reader()
    try:
        event = from_record(line["type"], line["v"], data)
        return words.event(event), words.explain(event)
    except (CodecError, ValueError, TypeError, KeyError):
        told = words.redacted(line["type"], data) if isinstance(data, dict) else None
        if told is not None:
            return told, []
        if whole is None:
            return "", []
        return words(hidden_details(whole)), []


def hidden_details(event: Any) -> Any:
    """``NAMES (details hidden)``: an event whose redacted record makes no event (hidden values
    it cannot hold), by the names it involves."""
    names = event.entities()
    if not names:
        return msg("server.details_hidden.nameless", "(details hidden)")
    return msg("server.details_hidden", "{names} (details hidden)", names=Listed(names, "comma"))


def _no_event(seq: int, end: int) -> Refusal:
    told = msg(
        "server.no_event", "there is no event #{seq} (the log ends at #{end})", seq=seq, end=end
    )
    return Refusal(422, "rule", say(told), "CORE-SEQ", params={"seq": seq, "end": end})


def no_name(name: str) -> Refusal:
    told = msg("server.no_name", "no character or item named {name!r}", name=name)
    return Refusal(404, "not_found", say(told), "UNKNOWN-NAME", params={"name": name})


def _no_seat(name: str) -> Refusal:
    told = msg("server.no_seat", "no seat named {name!r}", name=name)
    return Refusal(404, "not_found", say(told), "CORE-SEAT", params={"name": name})


def state(table: Table, seat: Seat, at: int | None) -> dict[str, Any]:
    """``GET …/state?at=SEQ``: the JSON state (at SEQ), redacted.

    Raises:
        Refusal: 422 CORE-SEQ for a seq past the end or below 0.
    """
    now = table.state()
    if at is not None and not 0 <= at <= now.seq:
        raise _no_event(at, now.seq)
    if at is None:
        data = read_models.state_json(now, systems.get(now.system).to_json)
        return _viewer(table, seat).state(data)

    def made() -> dict[str, Any]:
        with table.lock:
            folded = table.session.state(at)
        data = read_models.state_json(folded, systems.get(folded.system).to_json)
        return _viewer(table, seat).state(data)

    return _whole(table, seat, ("state", at), made)


def _whole(table: Table, seat: Seat, key: tuple[Any, ...], make: Callable[[], T]) -> T:
    """A whole-log read's answer for the seat, made once per seq the table is at and kind of
    seat (:class:`~tablelog.server.limits.WholeReads`)."""
    from tablelog.server.limits import reads_of

    kind = ("gm",) if seat.role == "gm" else (seat.role, seat.characters, seat.name)
    at = (table.current().seq, table.reloads)  # a store that lost its tail: made again
    return reads_of(table).get((*at, kind, reader().lang, *key), make)


def entity(table: Table, seat: Seat, name: str) -> dict[str, Any]:
    """``GET …/state/{name}``: one character or item, redacted; 404 when unknown."""
    data = state(table, seat, None)
    found = data["characters"].get(name, data["items"].get(name))
    if found is None:
        raise no_name(name)
    return found  # type: ignore[no-any-return]


def log(table: Table, seat: Seat, after: int, show_all: bool, limit: int) -> list[dict[str, Any]]:
    """``GET …/log``: the records after ``after`` as ``log --json`` lines, redacted (made once
    per seq and kind of seat)."""
    table.state()
    return _whole(
        table,
        seat,
        ("log", after, show_all, limit),
        lambda: _log(table, seat, after, show_all, limit),
    )


def _log(table: Table, seat: Seat, after: int, show_all: bool, limit: int) -> list[dict[str, Any]]:
    viewer = _viewer(table, seat)
    with table.lock:
        undone = undone_after(table.session.markers())
    lines = []
    for rec in table.records_after(max(0, after)):  # at most 10,000: see the limit below
        if rec.seq in undone and not show_all:
            continue
        line = shown(viewer, record_line(rec, rec.seq in undone))
        if line is None:
            continue
        lines.append(line)
        if len(lines) >= max(1, min(limit, 10_000)):
            break
    return lines


def history(table: Table, seat: Seat, name: str, show_all: bool = False) -> list[dict[str, Any]]:
    """``GET …/history/{name}``: what ``history NAME --json`` prints (``?all=true``: what
    ``history NAME --all --json`` prints: undone events too, marked, and the undos and redos
    with what they took back or restored), redacted: its changes, and its ``event`` and
    ``explain`` made from the redacted event (hidden cards as ``"?"``); made once per seq and
    kind of seat."""
    table.state()
    return _whole(
        table, seat, ("history", name, show_all), lambda: _history(table, seat, name, show_all)
    )


def _history(table: Table, seat: Seat, name: str, show_all: bool) -> list[dict[str, Any]]:
    from tablelog.events.codec import to_record

    now = table.current()
    with table.reader() as session:
        undone = undone_after(session.markers())
        if show_all:
            narrated = read_models.narrate(
                session.blank_state(), session.events(), undone, session.state
            )
            entries = list(read_models.touching(narrated, name))
        else:
            blank = session.blank_state()
            entries = list(read_models.history(blank, session.events(), undone, name))
    if not entries and now.entity(name) is None:
        raise no_name(name)
    viewer = _viewer(table, seat)
    words = reader()
    if viewer.sees_all:
        return [e.to_json(words) for e in entries]
    shown_entries = []
    for entry in entries:  # the event's words, from its redacted record (as the log shows it)
        kind, version, data = to_record(entry.event)
        seen = viewer.record({"type": kind, "v": version, "actor": entry.actor, "data": data})
        if seen is None:
            continue
        described, explain = _described(seen, entry.event)
        whole = entry.to_json(words)
        shown_entries.append(
            {
                **whole,
                "event": described,
                "explain": explain,
                "changes": viewer.changes(whole["changes"], entity=name),
            }
        )
    return shown_entries


def command(
    table: Table, seat: Seat, line: str, request_id: str | None, dry_run: bool
) -> tuple[dict[str, Any], int]:
    """``POST …/commands``: parse one command line, authorise it for the seat, decide and
    append it (the server's *parse → authorise → execute → render JSON*).

    Returns:
        The answer (``seqs, events, changes, request_id, stand_in_rolls``: true for a dry run
        of a seat but the GM's whose events depend on the seed, decided with stand-in dice)
        and its status: 201 appended, 200 a dry run or a repeated request id.

    Raises:
        Refusal: 400 usage, 403 forbidden, 422 rule (its params and suggestions as the seat
            may read them), 503 log.
    """
    if seat.role == "observer":
        raise Refusal(
            403,
            "forbidden",
            say(
                msg(
                    "server.forbidden.observer",
                    "{seat} is an observer: observers append nothing",
                    seat=seat.name,
                )
            ),
            "CORE-ROLE",
            params={"seat": seat.name, "role": seat.role},
        )
    if seat.role != "gm":
        from tablelog.server.limits import budget_of

        budget_of(table).take(seat.name, line, dry_run)
    if request_id is not None:
        from tablelog.store.format import is_request_id

        if not is_request_id(request_id):
            raise Refusal(
                400,
                "usage",
                say(msg("server.usage.request_id", "a request_id is 1-64 of A-Z a-z 0-9 . _ : -")),
            )
    try:
        parsed = parse_line(line)
    except Usage as exc:
        raise Refusal(400, "usage", exc.message, params=exc.params) from None
    authorizer(table, seat)(parsed.command, parsed.words)
    decided = trust.blind_preview(table, seat, parsed.command, dry_run)
    try:
        outcome, stand_in = table.command(
            decided,
            seat,
            request_id,
            dry_run,
            vet=lambda: trust.refuse_reroll(table, seat, decided),
        )
    except RuleViolation as exc:  # it may tell where a hidden card is: not to every seat
        raise refused(exc, viewer_of(table, seat, table.current()), table) from None
    viewer = viewer_of(table, seat, table.current())  # caught up by the command
    answer = _answer(table, outcome, viewer, request_id, preview=dry_run)
    answer["stand_in_rolls"] = stand_in  # see Table.command
    return answer, 201 if outcome.written else 200


def refused(exc: RuleViolation, viewer: Viewer, table: Table) -> Refusal:
    """Return a rule's refusal as the seat may read it: 422 ``rule``, its message with every
    secret it may not read blurred, its params and suggestions likewise (SERVER.md §4)."""
    made = Refused.of(exc, table.current())
    words = reader().seeing(viewer.sees)
    return Refusal(
        422,
        "rule",
        words(made.sentence())[len(exc.rule_id) + 2 :],
        exc.rule_id,
        params_of(exc.msg, viewer.sees),
        made.shown_suggestions(viewer.sees),
    )


def _answer(
    table: Table, outcome: Outcome, viewer: Viewer, request_id: str | None, preview: bool
) -> dict[str, Any]:
    """The appended events as ``log --json`` lines (read back from the log; a dry run's as
    decided, without ``at``) and the values they changed, redacted as the seat's real answer
    would be; a preview's cards drawn from the pile are ``"?"`` to all (:func:`unseen_draws`)."""
    from tablelog.events.codec import to_record

    lines, changes = [], []
    stored = {}
    if outcome.applied and (outcome.written or outcome.repeated):
        first, last = outcome.applied[0].seq, outcome.applied[-1].seq
        for rec in table.records_after(first - 1, last - first + 1):
            stored[rec.seq] = record_line(rec, False)
    for applied in outcome.applied:
        kind, version, data = to_record(applied.event)
        line = stored.get(applied.seq) or {
            "seq": applied.seq,
            "type": kind,
            "v": version,
            "at": None,
            "actor": viewer.seat or table.session.actor,
            "data": data,
            "undone": False,
        }
        lines.append(line)
        changes += [{"field": p, "old": o, "new": n} for p, o, n in applied.changes]
    if preview:
        lines, changes = unseen_draws(viewer.hidden, lines, changes)
    seqs = [outcome.applied[0].seq, outcome.applied[-1].seq] if outcome.applied else []
    return {
        "seqs": seqs,
        "events": [seen for seen in (shown(viewer, line) for line in lines) if seen is not None],
        "changes": viewer.changes(changes),
        "request_id": request_id,
    }


def authorizer(table: Table, seat: Seat) -> Any:
    """Return the check run on a command record before it is decided (SERVER.md §3).

    A player may issue a command that acts for one of the seat's characters, a note, a roll of
    plain dice, table talk and whispers, and undo or redo of the seat's own actions; everything
    else is the GM's.

    Raises:
        Refusal: 403 naming the character or the role needed.
    """

    def authorize(command: object, words: str) -> None:
        if seat.role == "gm":
            return
        if isinstance(command, AddNote | RollDice | Say):
            return  # a note, a roll of plain dice, talk: any seat that appends (CORE-DICE)
        if isinstance(command, Undo | Redo):
            _own_action(table, seat, command)
            return
        field = systems.acting_field(type(command))
        if field is None:
            raise Refusal(
                403,
                "forbidden",
                say(
                    msg(
                        "server.forbidden.gm_only",
                        "{command} is the GM's to do (needs the gm role; {seat} is a {role})",
                        command=words or type(command).__name__,
                        seat=seat.name,
                        role=Term("core.role", seat.role),
                    )
                ),
                "CORE-ROLE",
                params={"command": words, "needs": "gm", "seat": seat.name, "role": seat.role},
            )
        acting = getattr(command, field)
        names = [acting] if isinstance(acting, str) else list(acting or ())
        if not names:
            raise Refusal(
                403,
                "forbidden",
                say(
                    msg(
                        "server.forbidden.for_none",
                        "{command} names none of {seat}'s characters: a player acts for its own "
                        "({seat} plays {plays})",
                        command=words or type(command).__name__,
                        seat=seat.name,
                        plays=Listed(seat.characters, "comma")
                        if seat.characters
                        else msg("server.plays.none", "none"),
                    )
                ),
                params={"command": words, "seat": seat.name, "plays": list(seat.characters)},
            )
        for name in names:
            if name not in seat.characters:
                raise Refusal(
                    403,
                    "forbidden",
                    say(
                        msg(
                            "server.forbidden.not_yours",
                            "{name} is not {seat}'s character ({seat} plays {plays})",
                            name=name,
                            seat=seat.name,
                            plays=Listed(seat.characters, "comma")
                            if seat.characters
                            else msg("server.plays.none", "none"),
                        )
                    ),
                    "CORE-ROLE",
                    params={"character": name, "seat": seat.name, "plays": list(seat.characters)},
                )
        trust.refuse_given(table, seat, command, words)

    return authorize


def _own_action(table: Table, seat: Seat, command: Undo | Redo) -> None:
    """A player's undo/redo of a named action: only an action the seat took."""
    if command.target is None:
        return  # a bare undo/redo takes the seat's own action (its actor) already
    session = table.session
    try:
        action = actions.action_of(session.summaries(command.target), command.target)
    except RuleViolation:
        return  # the decider refuses it with its own rule
    if action.actor != seat.name:
        told = (
            msg(
                "server.forbidden.undo_others",
                "#{seq} is {actor}'s action: a player may undo only the seat's own (needs the "
                "gm role)",
                seq=command.target,
                actor=action.actor,
            )
            if isinstance(command, Undo)
            else msg(
                "server.forbidden.redo_others",
                "#{seq} is {actor}'s action: a player may redo only the seat's own (needs the "
                "gm role)",
                seq=command.target,
                actor=action.actor,
            )
        )
        raise Refusal(
            403,
            "forbidden",
            say(told),
            "CORE-ROLE",
            params={"seq": command.target, "actor": action.actor},
        )


def stream_lines(table: Table, seat: Seat, after: int) -> list[tuple[int, dict[str, Any] | None]]:
    """Return ``(seq, redacted log line)`` of every record after ``after`` (the event stream);
    the line is None for a record the seat does not read (another's whisper or secret roll:
    its seq is passed, nothing of it is sent).

    Streams of seats that see alike (one role, the same characters) that wait after the same
    seq get the same lines, made once (``table.streamed``, kept for the table's latest seq);
    only the records some seats alone read are made again for each seat.
    """
    return [(seq, line) for seq, line, _ in _streamed(table, seat, after)]


def stream_texts(table: Table, seat: Seat, after: int) -> list[tuple[int, str | None]]:
    """Return ``(seq, JSON text)`` of the lines :func:`stream_lines` returns (None: a record
    the seat does not read), each text also made once for all the streams that see alike (a
    hundred subscribers: one encoding)."""
    return [(seq, text) for seq, _, text in _streamed(table, seat, after)]


Streamed = tuple[int, dict[str, Any] | None, str | None]


def _streamed(table: Table, seat: Seat, after: int) -> list[Streamed]:
    alike = _streamed_alike(table, seat, after)
    if seat.role == "gm" or all(raw is None for *_, raw in alike):
        return [(seq, line, text) for seq, line, text, _ in alike]
    viewer = viewer_of(table, seat, table.current())
    made: list[Streamed] = []
    for seq, line, text, raw in alike:
        if raw is not None:  # a record some seats alone read: is this seat one of them?
            line = shown(viewer, raw)
            text = None if line is None else json.dumps(line, ensure_ascii=False)
        made.append((seq, line, text))
    return made


def _streamed_alike(
    table: Table, seat: Seat, after: int
) -> list[tuple[int, dict[str, Any] | None, str | None, dict[str, Any] | None]]:
    """The stream's lines as every seat of ``seat``'s kind sees them (made once per kind and
    seq), each with its unredacted line when only some seats read the record (else None)."""
    end = table.state(within_s=STREAM_LOOK_S).seq
    key = (after, end, seat.role, seat.characters, reader().lang)
    made = table.streamed.get(key)
    if made is not None:
        return made
    records = table.records_after(after, 1000)
    alike = viewer_of(table, Seat("", seat.role, seat.characters), table.current())
    restricted = table.restricted() if seat.role != "gm" else {}
    with table.lock:
        undone = undone_after(table.session.markers()) if records else set()
    made = []
    for rec in records:
        raw = record_line(rec, rec.seq in undone)
        line = shown(alike, raw)
        text = None if line is None else json.dumps(line, ensure_ascii=False)
        made.append((rec.seq, line, text, None if _read_by_all(raw, restricted) else raw))
    if records:
        if any(k[1] != end for k in table.streamed) or len(table.streamed) > 256:
            table.streamed = {}
        table.streamed[key] = made
    return made


def _read_by_all(line: dict[str, Any], restricted: dict[int, Any]) -> bool:
    """Whether every seat reads the record ``line``: not a whisper, not a secret roll, not
    the undo or redo marker of one (``restricted``: their seqs)."""
    if line["type"] in MARKERS:
        return line["data"].get("target") not in restricted
    readers = READERS.get(line["type"])
    return readers is None or readers(line["data"]) is None


def add_seat(
    table: Table, name: str, role: str, characters: list[str], token: str, link: str
) -> None:
    """Append ``core.SeatAdded`` (the token's and the link's hashes)."""
    _seat_command(
        table, AddSeat(name, role, tuple(characters), token_hash(token), token_hash(link))
    )


def require_gm(seat: Seat) -> None:
    """Refuse a seat that is not a GM's what only a GM does (seats, bindings).

    Raises:
        Refusal: 403 forbidden naming the seat and the role it needs.
    """
    if seat.role == "gm":
        return
    told = msg(
        "server.forbidden.needs_gm",
        "{seat} is a {role}: this needs the gm role",
        seat=seat.name,
        role=Term("core.role", seat.role),
    )
    raise Refusal(
        403, "forbidden", say(told), "CORE-ROLE", params={"seat": seat.name, "needs": "gm"}
    )


def check_characters(table: Table, role: str, characters: list[str]) -> None:
    """Refuse a player seat for names that are no character of the table (a typo, or one the
    GM has yet to add): 409 ``confirm``, naming them; the GM confirms to add it anyway.

    Raises:
        Refusal: 409 confirm.
    """
    state = table.state()
    missing = [name for name in characters if name not in state.characters]
    if role != "player" or not missing:
        return
    told = msg(
        "server.seat.confirm",
        "{names} is no character of this table (yet): add the seat anyway?",
        names=Listed(tuple(missing), "comma"),
    )
    raise Refusal(409, "confirm", say(told), params={"characters": missing})


def seat_rows(table: Table) -> list[dict[str, Any]]:
    """``GET …/seats``: each seat's name, role, characters and number of browser sessions."""
    from tablelog.projections.core import seats

    return [
        {
            "name": name,
            "role": seat["role"],
            "characters": list(seat["characters"]),
            "sessions": len(seat.get("sessions", ())),
        }
        for name, seat in seats(table.state()).items()
    ]


def revoke_seat(table: Table, name: str) -> None:
    """Append ``core.SeatRevoked``; 404 when there is no such seat."""
    if name not in {n for n in seat_names(table)}:
        raise _no_seat(name)
    _seat_command(table, RevokeSeat(name))


def rotate_seat(table: Table, name: str, token: str, link: str) -> Seat:
    """Append ``core.SeatRotated``: the seat's new token and link (its
    old ones and its sessions stop working); return the seat. 404 when there is no such seat."""
    from tablelog.projections.core import seats

    if name not in {n for n in seat_names(table)}:
        raise _no_seat(name)
    _seat_command(table, RotateSeat(name, token_hash(token), token_hash(link)))
    seat = seats(table.current())[name]
    return Seat(name, seat["role"], tuple(seat["characters"]))


def open_session(table: Table, link: str, session: str) -> Seat:
    """Exchange the seat's page link for a browser session (``core.SeatSessionOpened``, as the
    seat); return the seat.

    Raises:
        Refusal: 401 when the link opens no seat of the table (used up, replaced, or never
            one: the other process that exchanged it first wins).
    """
    seat = table.seat_of(link, kind="link")
    if seat is None:
        raise Refusal(401, "unauthorized", "this link is used up or was replaced")
    try:
        table.execute(OpenSession(token_hash(link), token_hash(session)), seat.name)
    except RuleViolation:
        raise Refusal(401, "unauthorized", "this link is used up or was replaced") from None
    return seat


def seat_names(table: Table) -> list[str]:
    """The names of the table's seats, not revoked (any seat reads them: the log's seat records
    name them too, without their tokens)."""
    from tablelog.projections.core import seats

    return list(seats(table.state()))


def _seat_command(table: Table, command: object) -> None:
    try:
        table.execute(command, "gm")
    except RuleViolation as exc:
        raise Refusal(422, "rule", reader()(exc.msg), exc.rule_id) from None


def report(table: Table, seat: Seat, fmt: str, until: int | None, tz: str | None = None) -> str:  # noqa: C901 - the report's formats and its redactions per seat
    """``GET …/report?format=html|md``: the session report (SPEC), redacted for the seat: hidden
    cards in the timeline as ``"?"``, hidden figures (saga enemies' HP and LP) left out of the
    figures, charts, gains, damage and totals (an enemy's HP lost told its hidden HP).

    Raises:
        Refusal: 422 CORE-SEQ for a seq past the end.
    """
    from tablelog.exports import render
    from tablelog.exports.report import build

    now = table.state()
    if until is not None and not 0 <= until <= now.seq:
        raise _no_event(until, now.seq)
    from tablelog.lang.times import UnknownZone, zone_named

    viewer = _viewer(table, seat)
    words = reader()
    zone = None
    if tz:  # an IANA name only (never a path: zone_named also opens a zone file)
        try:
            if not _ZONE.fullmatch(tz):
                raise UnknownZone(tz)
            zone = zone_named(tz)
        except UnknownZone:
            told = msg("server.usage.tz", "tz={tz!r} is not a time zone (Asia/Tokyo)", tz=tz)
            raise Refusal(400, "usage", say(told), params={"tz": tz}) from None

    def describe(rec: Any, event: Any) -> str | None:
        line = viewer.record(record_line(rec, False))
        if line is None:  # a record the seat does not read: nothing of it in its report
            return None
        if line["data"] is not rec.data:  # redacted: describe what the seat may see
            return f"{rec.type} {_described(line, event)[0]}"
        return f"{rec.type} {words.event(event)}"

    def hidden(name: str, field: str) -> bool:
        return viewer.entity(name, {field: 0})[field] is None

    def made() -> str:
        with table.reader() as session:
            built = build(
                session,
                until,
                describe,
                None if viewer.sees_all else hidden,
                words=words,
                zone=zone,
            )
        if fmt != "html":
            return render.markdown(built)
        try:
            return render.html_page(built)
        except ModuleNotFoundError as exc:  # the charts extra: named, as the CLI names it
            from tablelog.cli.extras import missing_extra

            missing = missing_extra(exc)
            if missing is None:
                raise
            raise Refusal(501, "not_installed", say(missing)) from None

    return _whole(table, seat, ("report", fmt, until, tz if zone else None), made)


# What the page's other views (tablelog/server/sheets.py) share with these.
whole = _whole
described = _described
