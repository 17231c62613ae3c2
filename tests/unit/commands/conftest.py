"""The commands' unit tests read events as a face does: with every system's event texts loaded,
as :func:`tablelog.systems.get` loads them with the system, whichever test runs first (alone, a
test that describes an event would otherwise read its fields)."""

from collections.abc import Iterator

import pytest

from tablelog import systems


@pytest.fixture(autouse=True, scope="session")
def _texts_loaded() -> Iterator[None]:
    for name in systems.names():
        systems.get(name)
    yield
