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

from tablelog.server.tables import Refusal

__all__ = ["MAX_BODY_BYTES", "MAX_LOG_LIMIT", "handlers"]

MAX_BODY_BYTES = 64 * 1024
MAX_LOG_LIMIT = 10_000  # GET …/log?limit=: at most this many records in one answer

# what each query parameter of the API takes, in the words of its 400 answer
WANTS = {
    "limit": f"a whole number from 1 to {MAX_LOG_LIMIT:,}",
    "after": "a whole number from 0 (a seq)",
    "at": "a whole number (a seq)",
    "until": "a whole number (a seq)",
    "all": "true or false",
}

# msgspec's type names, as a body's field is described to a client
KINDS = {
    "str": "a string",
    "int": "a whole number",
    "bool": "true or false",
    "object": "a JSON object",
    "array": "a list",
    "null": "null",
    "float": "a number",
}

CODES = {
    400: "usage",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
    415: "usage",
    422: "usage",
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
    message = exc.detail if isinstance(exc.detail, str) else "bad request"
    if message.startswith("JSON is malformed"):
        message = f"the body is not JSON ({message.partition(': ')[2] or message})"
    return error(status, CODES.get(status, "usage"), message)


def internal(_: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    """Never a 500 with a traceback: an unforeseen failure is a 503 naming its kind; a body
    nested too deeply for the JSON decoder (``[[[…]]]`` within 64 KiB) is the client's: 400."""
    if isinstance(exc, RecursionError):
        return error(400, "usage", "the body is nested too deeply to be a request")
    return error(503, "log", f"the table could not answer ({type(exc).__name__})")


def handlers() -> dict[Any, Any]:
    """The app's exception handlers."""
    return {Refusal: refused, HTTPException: http_error, Exception: internal}


def too_large(request: Request[Any, Any, Any]) -> str:
    """``the body is N bytes; at most 65,536`` (N from Content-Length, when it was sent)."""
    length = request.headers.get("content-length", "")
    size = f"{int(length):,} bytes" if length.isdigit() else "over the limit"
    return f"the body is {size}; at most {MAX_BODY_BYTES:,} bytes"


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
            said.append(f"{key}={value!r} is not {WANTS.get(key, 'taken here')}")
        else:
            said.append(_body_problem(request, key, str(problem.get("message", ""))))
    return "; ".join(said) or (exc.detail if isinstance(exc.detail, str) else "bad request")


def _body_problem(request: Request[Any, Any, Any], key: str, message: str) -> str:
    """One problem with a JSON body, in plain words naming the field."""
    fields = _fields(request)
    send = f"send a JSON object with {fields}" if fields else "send a JSON object"
    missing = re.search(r"missing required field `([^`]+)`", message)
    if missing:
        return f"the body has no {missing.group(1)}: {send}"
    if key == "data" and message.strip("'") == "data":
        return f"the request has no body: {send}"
    typed = re.match(r"Expected `([^`]+)`, got `([^`]+)`", message)
    if typed:
        want, got = (KINDS.get(t, t) for t in typed.groups())
        what = "the body" if key == "data" else f"the body's {key}"
        return f"{what} is {got}, not {want}: {send}"
    return f"the body's {key}: {message}: {send}"


def _fields(request: Request[Any, Any, Any]) -> str:
    """The required fields of the route's body (``name and role``), or ``""``."""
    field = request.route_handler.parsed_data_field
    model = None if field is None else field.annotation
    if not isinstance(model, type) or not attrs.has(model):
        return ""
    names = [f.name for f in attrs.fields(model) if f.default is attrs.NOTHING]
    return " and ".join(names)
