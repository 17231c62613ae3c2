"""Discord's request signatures: Ed25519 over the timestamp and the body, checked before the
request is read any further (Discord's *Security and Authorization*)."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from tablelog.lang import say
from tablelog.server.tables import Refusal
from tablelog.text import msg

__all__ = ["MAX_SKEW_S", "public_key", "check"]

MAX_SKEW_S = 300
"""A request whose ``X-Signature-Timestamp`` is more than this many seconds from the server's
clock is refused, however well signed (an old request replayed)."""


def public_key(hex_key: str) -> Any:
    """Return the application's public key (Ed25519, 64 hex digits, as the Developer Portal
    shows it).

    Raises:
        ValueError: not 32 bytes of hex.
    """
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    raw = bytes.fromhex(hex_key.strip())
    if len(raw) != 32:
        raise ValueError("an Ed25519 public key is 32 bytes (64 hex digits)")
    return Ed25519PublicKey.from_public_bytes(raw)


def check(key: Any, headers: Mapping[str, str], body: bytes, now: float | None = None) -> None:
    """Refuse a request that Discord did not sign, or signed too long ago.

    Args:
        key: The application's public key (:func:`public_key`).
        headers: The request's headers (``X-Signature-Ed25519``, ``X-Signature-Timestamp``).
        body: The request's body, as it arrived.
        now: The clock (seconds since the epoch); None: ``time.time()``.

    Raises:
        Refusal: 401 ``unauthorized`` for a missing or wrong signature, or a timestamp more
            than :data:`MAX_SKEW_S` seconds off.
    """
    from cryptography.exceptions import InvalidSignature

    signature = headers.get("x-signature-ed25519", "")
    stamp = headers.get("x-signature-timestamp", "")
    try:
        key.verify(bytes.fromhex(signature), stamp.encode() + body)
    except (ValueError, InvalidSignature):
        told = msg("server.discord.bad_signature", "invalid request signature")
        raise Refusal(401, "unauthorized", say(told)) from None
    try:
        skew = abs((time.time() if now is None else now) - int(stamp))
    except ValueError:
        skew = MAX_SKEW_S + 1
    if skew > MAX_SKEW_S:
        told = msg(
            "server.discord.old_timestamp",
            "the request's timestamp is more than {most} seconds from the server's clock",
            most=MAX_SKEW_S,
        )
        raise Refusal(401, "unauthorized", say(told), params={"most_s": MAX_SKEW_S})
