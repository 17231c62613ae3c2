"""Signed records: each actor's Ed25519 key, and checking a log's signatures against its roster.

A user's private keys live in their own config directory (``$XDG_CONFIG_HOME/tablelog``, else
``~/.config/tablelog``; private, see :mod:`tablelog.store.private`), one file per actor
(``key-<BLAKE2b-128 of the actor's name>.ed25519``: the 32-byte private seed, mode 0600), never
in the log's folder. Whoever has a key for the actor they log as signs every record they append:
the signature (``sig``, 64 bytes, the last envelope key) covers the whole envelope — seq, type,
data, time, actor, command ids and ``prev``, the chain hash of everything before it.

The roster is in the log: ``core.KeyAdded`` records. The first one adds the key of the actor who
appends it, signed by that key: that actor owns the roster (the GM). Every later one is appended
by the owner and signed with the owner's key; it adds an actor's key or replaces it. From the
first key on, every record by an actor in the roster must carry a valid signature by that
actor's key at that point of the log; records by actors without a key are reported.
Signatures use the ``cryptography`` package (OpenSSL's Ed25519).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from typing import Any

import attrs

from tablelog.store.base import Log
from tablelog.store.errors import LogError, record_error
from tablelog.store.format import SIG_KEY, signed_message
from tablelog.store.private import private_dir, read_private, write_private
from tablelog.text import Msg, msg

__all__ = [
    "KEY_ADDED",
    "SignatureReport",
    "key_path",
    "private_key",
    "public_hex",
    "signer",
    "check_signatures",
    "parse_public",
    "pin_roster",
    "check_pin",
]

KEY_ADDED = "core.KeyAdded"
SHOWN_SEQS = 3  # unsigned records named per actor by verify
SHOWN_ACTORS = 20  # actors with unsigned records named by verify
_SEED_BYTES = 32


def key_path(actor: str, create: bool = False) -> str | None:
    """Return where this user keeps ``actor``'s private key, or None without a private config
    directory (made when ``create``)."""
    folder = private_dir("XDG_CONFIG_HOME", ".config", create)
    if folder is None:
        return None
    name = hashlib.blake2b(actor.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()
    return os.path.join(folder, f"key-{name}.ed25519")


def private_key(actor: str, create: bool = False) -> Any:
    """Return ``actor``'s private key (an ``Ed25519PrivateKey``), made when ``create`` and it
    is missing; None when there is none.

    Raises:
        LogError: the key cannot be made, or its file is not a key.
    """
    path = key_path(actor, create)
    if path is None:
        if create:
            raise LogError(
                msg(
                    "store.key.no_dir",
                    "no private directory for keys (~/.config/tablelog, mode 0700)",
                )
            )
        return None
    seed = read_private(path, _SEED_BYTES)
    if seed is None and create:
        # Without the sign extra the import fails here (the CLI names the extra), before a key
        # file that nothing could use is made.
        import cryptography  # noqa: F401

        if not write_private(path, os.urandom(_SEED_BYTES)):
            raise LogError(msg("store.key.write", "cannot write the key {path}", path=path))
        seed = read_private(path, _SEED_BYTES)
    if seed is None:
        return None
    if len(seed) != _SEED_BYTES:
        raise LogError(
            msg("store.key.not_key", "{path} is not a tablelog key (32 bytes)", path=path)
        )
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    return Ed25519PrivateKey.from_private_bytes(seed)


def public_hex(key: Any) -> str:
    """Return the hex of a private key's public key (64 digits: what the roster records)."""
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    return str(key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex())


def parse_public(text: str) -> bytes:
    """Return the 32 bytes of a public key written as 64 hex digits.

    Raises:
        ValueError: anything else.
    """
    if len(text) != 64 or any(c not in "0123456789abcdef" for c in text):
        raise ValueError(f"{text!r} is not a public key (64 lowercase hex digits)")
    return bytes.fromhex(text)


def signer(actor: str) -> Callable[[bytes], bytes] | None:
    """Return the function that signs for ``actor`` with this user's key, or None without one.

    Raises:
        LogError: the key file is not a key.
    """
    key = private_key(actor)
    return None if key is None else key.sign


@attrs.frozen
class SignatureReport:
    """What a log's signatures prove: ``signed`` records with a valid signature, ``keys`` actors
    in the roster, its ``owner`` and the owner's first public key (hex: compare it with the one
    the GM posted), and ``unsigned``: actor -> ``[records, first seqs…]``, the number of their
    records after the roster began, when they had no key, and the first :data:`SHOWN_SEQS` of
    them (for the first :data:`SHOWN_ACTORS` such actors; ``unsigned_others`` counts the
    records of the rest): bounded however long the log and however many actors it names."""

    signed: int
    keys: int
    owner: str
    owner_key: str
    unsigned: dict[str, list[int]]
    unsigned_others: int = 0


def check_signatures(  # noqa: C901 - one branch per fault a signature can have
    log: Log,
    actor_fault: Callable[[str], str] | None = None,
) -> SignatureReport | None:
    """Check every signature of a log against its roster (None for a log without one; the
    ``cryptography`` package is imported only when a roster begins), and every record's actor
    with ``actor_fault`` (why entry would refuse that actor, or ``""``).

    Raises:
        LogError: a record by an actor with a key whose signature is missing or wrong, a
            roster change not appended and signed by the roster's owner, or a record whose
            actor ``actor_fault`` refuses, naming the record.
    """
    roster: dict[str, Any] = {}
    unsigned: dict[str, list[int]] = {}
    owner, owner_key, signed, others = "", "", 0, 0
    checked: set[str] = set()
    for seq, env, offset, _, _ in log.records():
        actor = env["actor"]
        if actor_fault is not None and actor not in checked:
            _check_actor(log, seq, offset, actor, actor_fault, checked)
        adding = _added(env, seq, offset, log.path) if env["type"] == KEY_ADDED else None
        if adding is not None and not roster:  # the first key: its actor owns the roster
            if adding[0] != actor:
                raise _bad(
                    log,
                    seq,
                    offset,
                    msg(
                        "store.key.first_not_own",
                        "the first key added is {owner}'s, appended by {actor}: the roster's "
                        "owner adds their own key first",
                        owner=repr(adding[0]),
                        actor=repr(actor),
                    ),
                )
            owner, owner_key, roster[actor] = actor, adding[1].hex(), _public(adding[1])
        if not roster:
            continue
        if adding is not None and actor != owner:
            raise _bad(
                log,
                seq,
                offset,
                msg(
                    "store.key.not_owner",
                    "a key added by {actor}: only the roster's owner {owner} adds keys",
                    actor=repr(actor),
                    owner=repr(owner),
                ),
            )
        if actor in roster:
            _check_one(log, seq, offset, env, roster[actor])
            signed += 1
        else:
            found = unsigned.get(actor)
            if found is None and len(unsigned) >= SHOWN_ACTORS:
                others += 1
            elif found is None:
                unsigned[actor] = [1, seq]
            else:
                found[0] += 1
                if len(found) <= SHOWN_SEQS:
                    found.append(seq)
        if adding is not None:
            roster[adding[0]] = _public(adding[1])
    if not roster:
        return None
    return SignatureReport(signed, len(roster), owner, owner_key, unsigned, others)


def _check_actor(
    log: Log,
    seq: int,
    offset: int,
    actor: str,
    actor_fault: Callable[[str], str],
    checked: set[str],
) -> None:
    """Refuse a record whose actor entry would refuse (``Ann\\u200b``: an invisible character
    that makes one player's record look like another's); remember up to 1,024 good actors."""
    fault = actor_fault(actor)
    if fault:
        raise _bad(
            log,
            seq,
            offset,
            msg(
                "store.key.bad_actor",
                "its actor is one that tablelog refuses at entry ({why}); a crafted record",
                why=fault,
            ),
        )
    if len(checked) < 1024:  # bounded however many actors a crafted log names
        checked.add(actor)


def _public(raw: bytes) -> Any:
    """Return the Ed25519 public key of 32 raw bytes."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    return Ed25519PublicKey.from_public_bytes(raw)


def _check_one(log: Log, seq: int, offset: int, env: dict[str, Any], key: Any) -> None:
    """Check one record's signature by ``key`` (LogError naming it when missing or wrong)."""
    from cryptography.exceptions import InvalidSignature

    sig = env.get(SIG_KEY)
    try:
        if type(sig) is not bytes:
            raise InvalidSignature()
        key.verify(sig, signed_message(env))
    except InvalidSignature:
        actor = repr(env["actor"])
        if sig is None:
            why = msg(
                "store.key.unsigned",
                "no signature by {actor}'s key (forged or edited)",
                actor=actor,
            )
        else:
            why = msg(
                "store.key.forged",
                "a signature that is not by {actor}'s key (forged or edited)",
                actor=actor,
            )
        raise _bad(log, seq, offset, why) from None


def _added(env: dict[str, Any], seq: int, offset: int, path: str) -> tuple[str, bytes]:
    """Return ``(actor, public key)`` of a ``core.KeyAdded`` record (LogError if malformed)."""
    data = env["data"]
    try:
        return str(data["actor"]), parse_public(data["public_key"])
    except (KeyError, TypeError, ValueError) as exc:
        why = msg("store.key.malformed", "a malformed key ({why})", why=str(exc))
        raise record_error(path, seq, offset, why) from None


def pin_roster(session_id: str, owner_key: str | None) -> tuple[str, str] | None:
    """Remember the roster owner's key of a signed log, the first time this user verifies it
    (trust on first use, as ssh's known_hosts), and compare it every later time.

    The pin is a file in this user's private config directory (``roster-<BLAKE2b-128 of the
    session id>.pin``: the owner's public key in hex), never in the log's folder. A log whose
    header still names the session but whose roster is gone (stripped: every record rewritten
    unsigned) or begins with another owner's key (made anew by a forger) no longer matches it.

    Args:
        session_id: The log header's session id.
        owner_key: The owner's public key (hex) as ``verify`` found it, None for no roster.

    Returns:
        None when the log matches (or nothing was pinned, or there is no private directory);
        else ``(pinned key, pin file)``.
    """
    folder = private_dir("XDG_CONFIG_HOME", ".config", create=owner_key is not None)
    if folder is None:
        return None
    name = hashlib.blake2b(session_id.encode("utf-8", "surrogatepass"), digest_size=16)
    path = os.path.join(folder, f"roster-{name.hexdigest()}.pin")
    pinned = read_private(path, 64)
    if pinned is None:
        if owner_key is not None:
            write_private(path, owner_key.encode())
        return None
    seen = pinned.decode("ascii", "replace")
    return None if seen == owner_key else (seen, path)


def check_pin(name: str, session_id: str, report: SignatureReport | None) -> None:
    """Check a log's roster against this user's pin (:func:`pin_roster`; pinned when new).

    Raises:
        LogError: the roster is gone or has another owner's key, saying how to accept it.
    """
    found = pin_roster(session_id, report.owner_key if report else None)
    if found is None:
        return
    now = (
        msg("store.key.owner_now", "its roster's owner key is {key}", key=report.owner_key)
        if report
        else msg("store.key.no_roster", "it has no roster")
    )
    raise LogError(
        msg(
            "store.key.pinned",
            "{path}: this machine verified session {session} signed under the roster owner's "
            "key {key}, but {now}: the log was made anew or its signatures stripped (if the "
            "table really began a new roster, remove {pin})",
            path=name,
            session=session_id,
            key=found[0],
            now=now,
            pin=found[1],
        )
    )


def _bad(log: Log, seq: int, offset: int, why: Msg | str) -> LogError:
    return record_error(log.path, seq, offset, why)
