"""The optional parts of tablelog and what to install for each (pyproject.toml's extras).

``pip install tablelog`` runs every command on a file store. The table server, a PostgreSQL
store, signatures and the report's charts each need a package of their own, installed with
an extra (``pip install 'tablelog[server]'``); each is imported only where it is used. A
command that reaches one that is missing ends with one line naming the extra to install
(exit status 3: the command cannot run here, as a log that cannot be used), never a traceback:
:meth:`tablelog.cli.main.LazyGroup.invoke` turns the import's error into that line.
"""

from __future__ import annotations

from tablelog.text import Msg, msg

__all__ = ["EXTRAS", "extra_of", "missing_extra"]

EXTRAS = {
    "litestar": "server",
    "uvicorn": "server",
    "psycopg": "postgres",
    "cryptography": "sign",
    "matplotlib": "charts",
}
"""The top-level module of each optional dependency -> the extra that installs it."""


def _feature(extra: str) -> Msg:
    """Return what the extra ``extra`` makes possible, in a person's words."""
    if extra == "server":
        return msg("core.extra.server", "the table server (tablelog serve)")
    if extra == "postgres":
        return msg("core.extra.postgres", "a PostgreSQL store (postgresql://)")
    if extra == "sign":
        return msg("core.extra.sign", "signing (init --sign, tablelog key, a signed log)")
    return msg("core.extra.charts", "the report's charts (report --format html)")


def extra_of(exc: ImportError) -> str | None:
    """Return the extra whose missing module ``exc`` reports, or None for any other module.

    Args:
        exc: The error an import raised (its ``name`` is the module it could not find, a
            submodule's full name included).
    """
    top = (exc.name or "").partition(".")[0]
    return EXTRAS.get(top)


def missing_extra(exc: ImportError) -> Msg | None:
    """Return the sentence that says which extra to install, or None when ``exc`` is about a
    module no extra brings (a broken install: its traceback is the truth).

    Args:
        exc: The error an import raised.

    Returns:
        ``the table server (tablelog serve) needs litestar, which is not installed: pip
        install 'tablelog[server]'``.
    """
    extra = extra_of(exc)
    if extra is None:
        return None
    return msg(
        "core.extra.missing",
        "{feature} needs {module}, which is not installed: pip install 'tablelog[{extra}]'",
        feature=_feature(extra),
        module=(exc.name or "").partition(".")[0],
        extra=extra,
    )
