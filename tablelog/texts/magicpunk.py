"""The texts of the magicpunk events: their one-line descriptions and audit lines, as data."""

from __future__ import annotations
