"""What each API route answers, as plain data, redacted for the seat (SERVER.md §3-4).

The same read models as the CLI (``state --json``, ``log --json``, ``history --json``) through a
:class:`~tablelog.server.redact.Viewer`; commands through the CLI's own parser
(:meth:`Table.run_line`) with the seat's permissions checked before a command is decided.
"""

from __future__ import annotations

import json
from typing import Any

from tablelog import actions, systems
from tablelog.commands.core import AddNote, AddSeat, Redo, RevokeSeat, Undo
from tablelog.lang import ENGLISH, Words, params_of, say
from tablelog.projections import history as read_models
from tablelog.projections.core import undone_after
from tablelog.refusals import Refused
from tablelog.rules.core import RuleViolation
from tablelog.server.grammar import Usage, parse_line
from tablelog.server.redact import Viewer, unseen_draws
from tablelog.server.tables import Refusal, Seat, Table, token_hash
from tablelog.session import Outcome
from tablelog.text import Listed, Term, msg

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
    return Viewer.of(seat.role, seat.characters, table.state())


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


def shown(viewer: Viewer, line: dict[str, Any]) -> dict[str, Any]:
    """Return a log line redacted for ``viewer``, with ``text``: the event's one-line
    description as ``log`` prints it, made from the redacted data (so it hides what it hides)."""
    line = dict(viewer.record(line))
    line["text"] = _described(line)[0]
    return line


def _described(line: dict[str, Any], whole: Any = None) -> tuple[str, list[str]]:
    """Return the description and explanation (``history --json``'s ``event`` and ``explain``)
    of a redacted log line's event, made from its redacted data. When that data makes no event
    (hidden values it cannot hold): the names of ``whole`` (the event before redaction)
    ``"NAMES (details hidden)"``, or ``""``; and ``[]``."""
    from tablelog.events.codec import CodecError, from_record

    data = line["data"]
    if line["type"] == "core.SeatAdded":  # its description needs no token hash
        data = {**data, "token_sha256": ""}
    try:
        event = from_record(line["type"], line["v"], data)
        return ENGLISH.event(event), ENGLISH.explain(event)
    except (CodecError, ValueError, TypeError, KeyError):
        if whole is None:
            return "", []
        return ENGLISH(hidden_details(whole)), []


def hidden_details(event: Any) -> Any:
    """``NAMES (details hidden)``: an event whose redacted record makes no event (hidden values
    it cannot hold), by the names it involves."""
    names = event.entities()
    if not names:
        return msg("server.details_hidden.nameless", "(details hidden)")
    return msg("server.details_hidden", "{names} (details hidden)", names=Listed(names, "comma"))


def state(table: Table, seat: Seat, at: int | None) -> dict[str, Any]:
    """``GET …/state?at=SEQ``: the JSON state (at SEQ), redacted.

    Raises:
        Refusal: 422 CORE-SEQ for a seq past the end or below 0.
    """
    now = table.state()
    if at is not None and not 0 <= at <= now.seq:
        raise Refusal(
            422, "rule", f"there is no event #{at} (the log ends at #{now.seq})", "CORE-SEQ"
        )
    with table.lock:
        folded = now if at is None else table.session.state(at)
    data = read_models.state_json(folded, systems.get(folded.system).to_json)
    return _viewer(table, seat).state(data)


def entity(table: Table, seat: Seat, name: str) -> dict[str, Any]:
    """``GET …/state/{name}``: one character or item, redacted; 404 when unknown."""
    data = state(table, seat, None)
    found = data["characters"].get(name, data["items"].get(name))
    if found is None:
        raise Refusal(404, "not_found", f"no character or item named {name!r}", "UNKNOWN-NAME")
    return found  # type: ignore[no-any-return]


def log(table: Table, seat: Seat, after: int, show_all: bool, limit: int) -> list[dict[str, Any]]:
    """``GET …/log``: the records after ``after`` as ``log --json`` lines, redacted."""
    table.state()
    viewer = _viewer(table, seat)
    with table.lock:
        undone = undone_after(table.session.markers())
    lines = []
    for rec in table.records_after(max(0, after)):  # at most 10,000: see the limit below
        if rec.seq in undone and not show_all:
            continue
        lines.append(shown(viewer, record_line(rec, rec.seq in undone)))
        if len(lines) >= max(1, min(limit, 10_000)):
            break
    return lines


def history(table: Table, seat: Seat, name: str) -> list[dict[str, Any]]:
    """``GET …/history/{name}``: what ``history NAME --json`` prints, redacted: its changes,
    and its ``event`` and ``explain`` made from the redacted event (hidden cards as ``"?"``)."""
    from tablelog.events.codec import to_record

    now = table.state()
    with table.reader() as session:
        undone = undone_after(session.markers())
        entries = list(read_models.history(session.blank_state(), session.events(), undone, name))
    if not entries and now.entity(name) is None:
        raise Refusal(404, "not_found", f"no character or item named {name!r}", "UNKNOWN-NAME")
    viewer = _viewer(table, seat)
    if viewer.sees_all:
        return [e.to_json(ENGLISH) for e in entries]
    shown_entries = []
    for entry in entries:  # the event's words, from its redacted record (as the log shows it)
        kind, version, data = to_record(entry.event)
        described, explain = _described(
            viewer.record({"type": kind, "v": version, "data": data}), entry.event
        )
        whole = entry.to_json(ENGLISH)
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
            params={"seat": seat.name, "role": seat.role},
        )
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
    try:
        outcome, stand_in = table.command(parsed.command, seat, request_id, dry_run)
    except RuleViolation as exc:  # it may tell where a hidden card is: not to every seat
        raise refused(exc, Viewer.of(seat.role, seat.characters, table.current()), table) from None
    viewer = Viewer.of(seat.role, seat.characters, table.current())  # caught up by the command
    answer = _answer(table, outcome, viewer, request_id, preview=dry_run)
    answer["stand_in_rolls"] = stand_in  # see Table.command
    return answer, 201 if outcome.written else 200


def refused(exc: RuleViolation, viewer: Viewer, table: Table) -> Refusal:
    """Return a rule's refusal as the seat may read it: 422 ``rule``, its message with every
    secret it may not read blurred, its params and suggestions likewise (SERVER.md §4)."""
    made = Refused.of(exc, table.current())
    words = Words("en", viewer.sees)
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
            "actor": table.session.actor,
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
        "events": [shown(viewer, line) for line in lines],
        "changes": viewer.changes(changes),
        "request_id": request_id,
    }


def authorizer(table: Table, seat: Seat) -> Any:
    """Return the check run on a command record before it is decided (SERVER.md §3).

    A player may issue a command that acts for one of the seat's characters, a note, and undo
    or redo of the seat's own actions; everything else is the GM's.

    Raises:
        Refusal: 403 naming the character or the role needed.
    """

    def authorize(command: object, words: str) -> None:
        if seat.role == "gm":
            return
        if isinstance(command, AddNote):
            return
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
                params={"command": words, "needs": "gm", "seat": seat.name, "role": seat.role},
            )
        acting = getattr(command, field)
        names = [acting] if isinstance(acting, str) else list(acting or ())
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
                    params={"character": name, "seat": seat.name, "plays": list(seat.characters)},
                )

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
            403, "forbidden", say(told), params={"seq": command.target, "actor": action.actor}
        )


def stream_lines(table: Table, seat: Seat, after: int) -> list[tuple[int, dict[str, Any]]]:
    """Return ``(seq, redacted log line)`` of every record after ``after`` (the event stream).

    Streams of seats that see alike (one role, the same characters) that wait after the same
    seq get the same lines, made once (``table.streamed``, kept for the table's latest seq).
    """
    return [(seq, line) for seq, line, _ in _streamed(table, seat, after)]


def stream_texts(table: Table, seat: Seat, after: int) -> list[tuple[int, str]]:
    """Return ``(seq, JSON text)`` of the lines :func:`stream_lines` returns, each text also
    made once for all the streams that see alike (a hundred subscribers: one encoding)."""
    return [(seq, text) for seq, _, text in _streamed(table, seat, after)]


def _streamed(table: Table, seat: Seat, after: int) -> list[tuple[int, dict[str, Any], str]]:
    end = table.state(within_s=STREAM_LOOK_S).seq
    key = (after, end, seat.role, seat.characters)
    made = table.streamed.get(key)
    if made is not None:
        return made
    records = table.records_after(after, 1000)
    viewer = Viewer.of(seat.role, seat.characters, table.current())
    with table.lock:
        undone = undone_after(table.session.markers()) if records else set()
    lines = [(rec.seq, shown(viewer, record_line(rec, rec.seq in undone))) for rec in records]
    made = [(seq, line, json.dumps(line, ensure_ascii=False)) for seq, line in lines]
    if records:
        if any(k[1] != end for k in table.streamed) or len(table.streamed) > 256:
            table.streamed = {}
        table.streamed[key] = made
    return made


def add_seat(table: Table, name: str, role: str, characters: list[str], token: str) -> None:
    """Append ``core.SeatAdded`` (the token's hash only)."""
    _seat_command(table, AddSeat(name, role, tuple(characters), token_hash(token)))


def revoke_seat(table: Table, name: str) -> None:
    """Append ``core.SeatRevoked``; 404 when there is no such seat."""
    if name not in {n for n in _seat_names(table)}:
        raise Refusal(404, "not_found", f"no seat named {name!r}", "CORE-SEAT")
    _seat_command(table, RevokeSeat(name))


def _seat_names(table: Table) -> list[str]:
    from tablelog.projections.core import seats

    return list(seats(table.state()))


def _seat_command(table: Table, command: object) -> None:
    try:
        table.execute(command, "gm")
    except RuleViolation as exc:
        raise Refusal(422, "rule", exc.message, exc.rule_id) from None


def report(table: Table, seat: Seat, fmt: str, until: int | None) -> str:
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
        raise Refusal(
            422, "rule", f"there is no event #{until} (the log ends at #{now.seq})", "CORE-SEQ"
        )
    viewer = _viewer(table, seat)

    def describe(rec: Any, event: Any) -> str:
        line = viewer.record(record_line(rec, False))
        if line["data"] is not rec.data:  # redacted: describe what the seat may see
            return f"{rec.type} {_described(line, event)[0]}"
        return f"{rec.type} {ENGLISH.event(event)}"

    def hidden(name: str, field: str) -> bool:
        return viewer.entity(name, {field: 0})[field] is None

    with table.reader() as session:
        made = build(session, until, describe, None if viewer.sees_all else hidden)
    return render.html_page(made) if fmt == "html" else render.markdown(made)
