"""Projections: the state records and the evolvers that fold events into them, per system.

Importing the package registers the core events' evolvers: those of :mod:`.core` and
``core.Retired``'s (:mod:`.retirement`).
"""

from tablelog.projections import retirement  # noqa: F401 - registers core.Retired's evolver
