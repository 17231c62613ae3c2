"""The texts of the fate events: their one-line descriptions and audit lines, as data."""

from __future__ import annotations
