"""What tables and stores are called: table ids, and store URLs as messages show them.

Table ids are 1-64 characters of ``[A-Za-z0-9_-]``; a new one is 8 random characters. A store URL
is never printed with its password (:func:`redact`).
"""

from __future__ import annotations

import re
import secrets
import urllib.parse

__all__ = ["TABLE_ID", "new_table_id", "redact"]

TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def redact(url: str) -> str:
    """Return ``url`` without a password (for messages): the one in ``user:password@`` and a
    ``password=`` parameter of its query (libpq takes either), which becomes
    ``password=***``; other text is returned as it is."""
    try:
        parts = urllib.parse.urlsplit(url)
    except ValueError:
        return url
    query = "&".join(
        "password=***" if item.split("=", 1)[0].strip().lower() == "password" else item
        for item in parts.query.split("&")
    )
    if parts.password is None:
        return url if query == parts.query else urllib.parse.urlunsplit(parts._replace(query=query))
    parts = parts._replace(query=query)
    host = parts.hostname or ""
    netloc = f"{parts.username or ''}@{host}" + (f":{parts.port}" if _port(parts) else "")
    return urllib.parse.urlunsplit(parts._replace(netloc=netloc))


def _port(parts: urllib.parse.SplitResult) -> int | None:
    try:
        return parts.port
    except ValueError:
        return None


def new_table_id() -> str:
    """Return a fresh random table id: 8 characters of ``[A-Za-z0-9]`` (48 bits)."""
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
