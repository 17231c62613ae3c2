"""The texts of the pf2e events: their one-line descriptions and audit lines, as data."""

from __future__ import annotations
