"""The API's error answers (SERVER.md §4): JSON ``{"error": {"code", "rule", "message",
"params", "suggestions"}}`` with
the contract's status, never a 500; a request the API cannot read (a query parameter, a body) is
a 400 usage error in plain words naming the value or the missing field.
"""

from __future__ import annotations

import re
from typing import Any

import attrs
from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException

from tablelog.lang import say
from tablelog.server.tables import Refusal
from tablelog.text import Listed, msg

__all__ = ["MAX_BODY_BYTES", "MAX_LOG_LIMIT", "handlers"]

MAX_BODY_BYTES = 64 * 1024
MAX_LOG_LIMIT = 10_000  # GET …/log?limit=: at most this many records in one answer

# what each query parameter of the API takes, in the words of its 400 answer
WANTS = {
    "limit": msg(
        "server.wants.limit", "a whole number from 1 to {most}", most=f"{MAX_LOG_LIMIT:,}"
    ),
    "after": msg("server.wants.after", "a whole number from 0 (a seq)"),
    "at": msg("server.wants.seq", "a whole number (a seq)"),
    "until": msg("server.wants.seq", "a whole number (a seq)"),
    "all": msg("server.wants.bool", "true or false"),
}

# msgspec's type names, as a body's field is described to a client
KINDS = {
    "str": msg("server.kind.str", "a string"),
    "int": msg("server.kind.int", "a whole number"),
    "bool": msg("server.kind.bool", "true or false"),
    "object": msg("server.kind.object", "a JSON object"),
    "array": msg("server.kind.array", "a list"),
    "null": msg("server.kind.null", "null"),
    "float": msg("server.kind.float", "a number"),
}

CODES = {
    400: "usage",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    415: "usage",
    422: "usage",
    429: "too_many",
}


def error(
    status: int,
    code: str,
    message: str,
    rule: str | None = None,
    params: dict[str, Any] | None = None,
    suggestions: list[Any] | None = None,
) -> Response[Any]:
    """An error answer, ``{"error": {code, rule, message, params, suggestions}}``; its message
    shows no control character raw (names from the log are data: escape_text writes them as
    ``\\u001b`` and the like)."""
    from tablelog.rules.core import escape_text

    body = {
        "code": code,
        "rule": rule,
        "message": escape_text(message),
        "params": params or {},
        "suggestions": suggestions or [],
    }
    return Response({"error": body}, status_code=status)


def refused(_: Request[Any, Any, Any], exc: Refusal) -> Response[Any]:
    return error(exc.status, exc.code, exc.message, exc.rule, exc.params, exc.suggestions)


def http_error(request: Request[Any, Any, Any], exc: HTTPException) -> Response[Any]:
    """Litestar's own refusals: a query parameter or body it could not read (400, reworded
    by :func:`unreadable`), a body over the limit (413, naming its size), a wrong method."""
    status = exc.status_code if 400 <= exc.status_code < 500 else 400
    if isinstance(exc, ValidationException):
        return error(400, "usage", unreadable(request, exc))
    if status == 413:
        return error(413, "too_large", too_large(request))
    message = exc.detail if isinstance(exc.detail, str) else say(_BAD)
    if message.startswith("JSON is malformed"):
        why = message.partition(": ")[2] or message
        message = say(msg("server.usage.not_json", "the body is not JSON ({why})", why=why))
    return error(status, CODES.get(status, "usage"), message)


_BAD = msg("server.usage.bad", "bad request")


def internal(_: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    """Never a 500 with a traceback: an unforeseen failure is a 503 naming its kind; a body
    nested too deeply for the JSON decoder (``[[[…]]]`` within 64 KiB) is the client's: 400."""
    if isinstance(exc, RecursionError):
        told = msg("server.usage.nested", "the body is nested too deeply to be a request")
        return error(400, "usage", say(told))
    told = msg(
        "server.log.unforeseen", "the table could not answer ({kind})", kind=type(exc).__name__
    )
    return error(503, "log", say(told))


def handlers() -> dict[Any, Any]:
    """The app's exception handlers."""
    return {Refusal: refused, HTTPException: http_error, Exception: internal}


def too_large(request: Request[Any, Any, Any]) -> str:
    """``the body is N bytes; at most 65,536`` (N from Content-Length, when it was sent)."""
    length = request.headers.get("content-length", "")
    most = f"{MAX_BODY_BYTES:,}"
    if length.isdigit():
        told = msg(
            "server.usage.too_large",
            "the body is {size} bytes; at most {most} bytes",
            size=f"{int(length):,}",
            most=most,
        )
    else:
        told = msg(
            "server.usage.too_large_unsized",
            "the body is over the limit of {most} bytes",
            most=most,
        )
    return say(told)


def unreadable(request: Request[Any, Any, Any], exc: ValidationException) -> str:
    """The 400 message of a request Litestar could not read: each query parameter with its
    value and what it takes (``limit='-5' is not a whole number from 1 to 10,000``), a body's
    missing or mistyped field by name (``the body has no command: …``)."""
    problems = [
        e for e in (exc.extra if isinstance(exc.extra, list) else []) if isinstance(e, dict)
    ]
    said = []
    for problem in problems:
        key = str(problem.get("key", ""))
        if problem.get("source") == "query" or key in WANTS and key in request.query_params:
            value = request.query_params.get(key)
            wants = WANTS.get(key, msg("server.wants.none", "taken here"))
            said.append(
                msg(
                    "server.usage.query",
                    "{key}={value!r} is not {wants}",
                    key=key,
                    value=value,
                    wants=wants,
                )
            )
        else:
            said.append(_body_problem(request, key, str(problem.get("message", ""))))
    if said:
        return say(
            msg("server.usage.problems", "{problems}", problems=Listed(tuple(said), "semicolon"))
        )
    return exc.detail if isinstance(exc.detail, str) else say(_BAD)


def _body_problem(request: Request[Any, Any, Any], key: str, message: str) -> Any:
    """One problem with a JSON body, in plain words naming the field."""
    fields = _fields(request)
    send = (
        msg(
            "server.body.send_with",
            "send a JSON object with {fields}",
            fields=Listed(fields, "and"),
        )
        if fields
        else msg("server.body.send", "send a JSON object")
    )
    missing = re.search(r"missing required field `([^`]+)`", message)
    if missing:
        return msg(
            "server.body.missing",
            "the body has no {field}: {send}",
            field=missing.group(1),
            send=send,
        )
    if key == "data" and message.strip("'") == "data":
        return msg("server.body.none", "the request has no body: {send}", send=send)
    typed = re.match(r"Expected `([^`]+)`, got `([^`]+)`", message)
    if typed:
        want, got = (KINDS.get(t, t) for t in typed.groups())
        if key == "data":
            return msg(
                "server.body.is",
                "the body is {got}, not {want}: {send}",
                got=got,
                want=want,
                send=send,
            )
        return msg(
            "server.body.field_is",
            "the body's {field} is {got}, not {want}: {send}",
            field=key,
            got=got,
            want=want,
            send=send,
        )
    return msg(
        "server.body.field",
        "the body's {field}: {problem}: {send}",
        field=key,
        problem=message,
        send=send,
    )


def _fields(request: Request[Any, Any, Any]) -> tuple[str, ...]:
    """The required fields of the route's body (``("name", "role")``), or ``()``."""
    field = request.route_handler.parsed_data_field
    model = None if field is None else field.annotation
    if not isinstance(model, type) or not attrs.has(model):
        return ()
    return tuple(f.name for f in attrs.fields(model) if f.default is attrs.NOTHING)
