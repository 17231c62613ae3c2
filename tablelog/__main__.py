"""``python -m tablelog``: the same command line as the ``tablelog`` script."""

from tablelog.cli.main import main

main()
