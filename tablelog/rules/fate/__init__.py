"""Pure rules of the fan-made Fate TRPG (code casts, Noble Phantasms, unique abilities).

Split by domain area: :mod:`.grades`, :mod:`.codecast` (master setup), :mod:`.casting`,
:mod:`.phantasm`, :mod:`.mods`, :mod:`.targets`, :mod:`.upkeep` (fields, armies), :mod:`.unique`.

Source: fate-codecast-phantasm.ko.txt; RULES.md FATE-*.
"""

from tablelog.rules.fate.abilities import *  # noqa: F403 - the package re-exports its modules
from tablelog.rules.fate.casting import *  # noqa: F403
from tablelog.rules.fate.codecast import *  # noqa: F403
from tablelog.rules.fate.grades import *  # noqa: F403
from tablelog.rules.fate.mods import *  # noqa: F403
from tablelog.rules.fate.phantasm import *  # noqa: F403
from tablelog.rules.fate.phantasm import parse_np_grade  # noqa: F401
from tablelog.rules.fate.targets import *  # noqa: F403
from tablelog.rules.fate.text import *  # noqa: F403
from tablelog.rules.fate.unique import *  # noqa: F403
from tablelog.rules.fate.upkeep import *  # noqa: F403
from tablelog.rules.fate.words import *  # noqa: F403
