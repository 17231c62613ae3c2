"""Property tests of the ccfolia round trip (docs/INTEROP.md, "Round trip of the numbers"): a
character made by any add line the sheet says import-ccfolia carries, exported as ccfolia's
clipboard JSON in any language and imported into a new log, has the very record it had."""

from __future__ import annotations

import json
import shlex
import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from tests.support.cli import invoke, ok

LANGS = st.sampled_from(["en", "ja", "ko"])
RANKS = st.sampled_from(["novice", "expert", "master"])


def _options(pairs: list[tuple[str, object]]) -> str:
    return " ".join(f"{option} {shlex.quote(str(value))}" for option, value in pairs)


@st.composite
def magicpunk_lines(draw: st.DrawFn) -> str:
    """A magicpunk character add line: abilities, max HP, money, free-named skills."""
    values = [(f"--{a}", draw(st.integers(0, 40))) for a in ("body", "sense", "intellect", "magic")]
    values += [("--hp", draw(st.integers(1, 200))), ("--money", draw(st.integers(0, 99999)))]
    names = draw(st.lists(st.sampled_from(["swordplay", "first-aid", "lore", "剣術"]), unique=True))
    values += [("--skill", f"{name}={draw(RANKS)}") for name in names]
    return f"magicpunk character add Cyd {_options(values)}"


@st.composite
def pf2e_lines(draw: st.DrawFn) -> str:
    """A pf2e character add line: level, Crafting rank, and magical crafting or not."""
    crafting = draw(st.sampled_from(["trained", "expert", "master", "legendary"]))
    switch = draw(st.sampled_from(["", " --magical-crafting", " --no-magical-crafting"]))
    if crafting == "trained" and switch == " --magical-crafting":
        switch = ""  # magical crafting needs expert Crafting
    level = draw(st.integers(1, 20))
    return f"pf2e character add Ezren --level {level} --crafting {crafting}{switch}"


@st.composite
def saga_lines(draw: st.DrawFn) -> str:
    """A saga ally or enemy unit add line with the options the import carries."""
    most = draw(st.integers(1, 5000))
    values: list[tuple[str, object]] = [("--max-hp", most), ("--hp", draw(st.integers(0, most)))]
    enemy = draw(st.booleans())
    if enemy:
        values += [("--battle-rank", draw(st.integers(1, 60))), ("--race", "beast")]
        values += [("--intrinsic-hp", draw(st.integers(1, 500)))]
    else:
        values += [("--lp", draw(st.integers(1, 20)))]
    for stat in draw(st.lists(st.sampled_from(["str", "tec", "agi", "vit", "int"]), unique=True)):
        values.append(("--stat", f"{stat}={draw(st.integers(0, 99))}"))
    for kind in draw(st.lists(st.sampled_from(["1h-sword", "martial-arts", "spell"]), unique=True)):
        values.append(("--slv", f"{kind}={draw(st.integers(0, 50))}"))
    for kind in draw(st.lists(st.sampled_from(["1h-sword", "1h-gun"]), max_size=2)):
        values.append(("--weapon", f"{kind}={draw(st.integers(1, 60))}"))
    for element in draw(st.lists(st.sampled_from(["wood", "fire", "water"]), unique=True)):
        values.append(("--five", f"{element}={draw(st.integers(0, 20))}"))
    values += [("--resist", draw(st.integers(0, 50)))]
    values += [("--guard-rate", draw(st.integers(0, 30)))]
    values += [("--formation-attack", draw(st.integers(-20, 20)))]
    if draw(st.booleans()):
        values.append(("--trait", f"attack/slash={draw(st.integers(1, 9))}"))
    return f"saga unit add Kat {_options(values)}{' --enemy' if enemy else ''}"


@st.composite
def fate_lines(draw: st.DrawFn) -> str:
    """A fate master or servant add line with the options the import carries."""
    grade = st.sampled_from(["E", "D", "C", "B", "A"])
    if draw(st.booleans()):
        values = [("--hp", draw(st.integers(1, 200))), ("--mp", draw(st.integers(0, 200)))]
        values += [
            ("--np-budget", draw(st.integers(0, 30))),
            ("--row", draw(st.sampled_from(["front", "back"]))),
        ]
        if draw(st.booleans()):
            values.append(("--madness", draw(grade)))
        return f"fate servant add Saber {_options(values)}"
    values = [("--quality", draw(grade)), ("--quantity", draw(grade)), ("--crest", draw(grade))]
    for attribute in draw(
        st.lists(st.sampled_from(["fire", "earth", "wind"]), min_size=1, unique=True)
    ):
        values.append(("--attribute", attribute))
    values += [("--hp", draw(st.integers(1, 200))), ("--mp", draw(st.integers(0, 200)))]
    values += [
        ("--cc-budget", draw(st.integers(20, 40))),
        ("--character-grade", draw(st.integers(0, 5))),
    ]
    for kind in draw(st.lists(st.sampled_from(["attack", "heal"]), unique=True)):
        values.append(("--stored", f"{kind}={draw(st.integers(1, 2))}"))
    return f"fate master add Kiritsugu {_options(values)}"


LINES = {
    "magicpunk": magicpunk_lines(),
    "pf2e": pf2e_lines(),
    "saga": saga_lines(),
    "fate": fate_lines(),
}


def _comes_back(system: str, line: str, lang: str) -> None:
    """Add a character by ``line`` (a line the rules refuse proves nothing: skipped), export it
    for ccfolia in ``lang``, import it into a new log with --run: the same record."""
    with tempfile.TemporaryDirectory() as folder:
        source, target, pasted = (Path(folder) / n for n in ("a.tlog", "b.tlog", "c.json"))
        ok(source, "init", "--system", system)
        if invoke(source, *shlex.split(line)).exit_code != 0:
            return
        pasted.write_text(ok(source, "--lang", lang, "export", "--format", "ccfolia"), "utf-8")
        ok(target, "init", "--system", system)
        ok(target, "import-ccfolia", str(pasted), "--run")
        made, back = (
            json.loads(ok(log, "state", "--json"))["characters"] for log in (source, target)
        )
        assert made == back, line


@given(line=LINES["magicpunk"], lang=LANGS)
def test_any_magicpunk_character_comes_back_from_ccfolia(line, lang):
    """Any magicpunk character add line's character round-trips through ccfolia."""
    _comes_back("magicpunk", line, lang)


@given(line=LINES["pf2e"], lang=LANGS)
def test_any_pf2e_character_comes_back_from_ccfolia(line, lang):
    """Any pf2e character add line's character round-trips through ccfolia."""
    _comes_back("pf2e", line, lang)


@given(line=LINES["saga"], lang=LANGS)
def test_any_saga_unit_comes_back_from_ccfolia(line, lang):
    """Any saga unit add line's unit round-trips through ccfolia."""
    _comes_back("saga", line, lang)


@given(line=LINES["fate"], lang=LANGS)
def test_any_fate_master_or_servant_comes_back_from_ccfolia(line, lang):
    """Any fate master or servant add line's character round-trips through ccfolia."""
    _comes_back("fate", line, lang)
