"""Commands over whole tables and stores: copy."""

from __future__ import annotations

import click

from tablelog.cli.core import CliError, domain_errors, echo
from tablelog.lang import say
from tablelog.text import msg

__all__ = ["COMMANDS"]


@click.command()
@click.argument("source")
@click.argument("target")
@domain_errors
def copy(source: str, target: str) -> None:
    """Copy a table from SOURCE to a new TARGET, between any two stores, and check the copy.

    SOURCE and TARGET are --log values: a file path, file:DIR#ID or postgresql://…#ID (TARGET as
    a store URL without #ID: a table with a new id). The copy holds the same bytes and hash chain;
    it is read back and replayed before it is reported. An existing TARGET is refused. Example:
    tablelog copy war.tlog 'postgresql://localhost/club#war'
    """
    from tablelog.session import LogError, Session
    from tablelog.store.copy import copy_log
    from tablelog.store.url import discard_log, open_log

    log = open_log(source)
    copied = copy_log(log, target)
    if copied.torn_at is not None:
        echo(
            say(
                msg(
                    "core.copy.torn",
                    "warning: torn last record at byte {offset} of {log} (a crash mid-append) "
                    "is not copied",
                    offset=copied.torn_at,
                    log=log.path,
                )
            ),
            err=True,
        )
    if copied.in_flight is not None:
        echo(
            say(
                msg(
                    "core.copy.in_flight",
                    "warning: the record at byte {offset} of {log} is still being written by "
                    "another writer (it held the lock past the timeout) and is not copied",
                    offset=copied.in_flight,
                    log=log.path,
                )
            ),
            err=True,
        )
    session = Session(copied.spec, snapshots=False)
    try:
        folded = session.state()
    except LogError as exc:
        discard_log(session.log)
        raise CliError(
            msg(
                "core.copy.no_replay",
                "{problem}; the copy does not replay and was removed (tablelog verify names "
                "the problem in the source)",
                problem=exc.msg,
            ),
            1,
        ) from None
    finally:
        session.log.close()
    echo(
        say(
            msg(
                "core.copy.done",
                "copied {records} records from {source} to {target}: hash chain intact, "
                "replays ({system})",
                records=copied.records,
                source=log.path,
                target=copied.path,
                system=folded.system,
            )
        )
    )


COMMANDS = [copy]
