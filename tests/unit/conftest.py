"""Unit tests read events' texts (``ENGLISH.event``) without opening a log: every registered
system's texts are loaded first, as a face loads them when it opens one of its logs."""

from tablelog import systems

for _name in systems.names():
    systems.get(_name)
