"""The ``tablelog`` command with the test-only toy system installed (benchmarks use its events,
so they do not depend on the game systems)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.support import toy  # noqa: E402

toy.install()

from tablelog.cli.main import main  # noqa: E402

if __name__ == "__main__":
    main()
