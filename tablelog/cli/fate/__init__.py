"""``tablelog fate …``: the fan-made Fate TRPG (thin: parse options -> command -> execute).

Importing this package builds the ``fate`` click group with every subcommand.
"""

from tablelog.cli.fate import battle as _battle  # noqa: F401 - registers subcommands
from tablelog.cli.fate import setup as _setup  # noqa: F401 - registers subcommands
from tablelog.cli.fate.groups import group

__all__ = ["group"]

from tablelog.cli.extend import extend  # noqa: E402 - --force joins the group

extend("fate", group)
