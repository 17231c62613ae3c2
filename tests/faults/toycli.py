"""The real ``tablelog`` command, in a child process, with the test-only toy system installed.

Usage: ``python tests/faults/toycli.py [tablelog arguments…]``.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.support import toy  # noqa: E402

toy.install()

from tablelog.cli.main import main  # noqa: E402

if __name__ == "__main__":
    main()
