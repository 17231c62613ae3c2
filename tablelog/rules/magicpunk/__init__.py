"""Magic Punk TRPG optional rules: pure game math (no I/O).

Modules by domain area: :mod:`.cards` (mana cards and draws), :mod:`.clock` (time and rest
packages), :mod:`.checks` (``nMPm`` dice), :mod:`.combat` (damage, cover, briefing),
:mod:`.procurement` (rarity, Ma-GEAR), :mod:`.rebuild`, :mod:`.lifestyle` (cohabitation).

Source: magicpunk-optional-rules.ja.txt; RULES.md, MP-*.
"""
