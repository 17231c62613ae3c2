"""The message catalogues (issue 27): current with the code, complete in ja and ko, their
placeholders equal to the English ones, and every template rendering in every language.

The sources are tablelog/lang/locale/tablelog.pot (``make catalogues`` extracts it) and each
language's tablelog.po; the tests read them with Babel, as ``pybabel`` does.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from tablelog import systems
from tablelog.lang import Words
from tablelog.lang.catalog import LOCALES
from tablelog.text import Msg

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "tablelog" / "lang" / "locale"
FIELD = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)(?:![rsa])?(?::[^{}]*)?\}")
# The code's template ids: the core's, the faces' and each registered system's.
OWN = re.compile(rf"^({'|'.join(['core', *systems.REGISTRY, 'server', 'web'])})\.")


def _read(path: Path) -> Catalog:
    with path.open("rb") as stream:
        return read_po(stream)


@pytest.fixture(scope="module")
def template() -> Catalog:
    return _read(LOCALE / "tablelog.pot")


@pytest.fixture(scope="module", params=LOCALES)
def catalogue(request: pytest.FixtureRequest) -> tuple[str, Catalog]:
    lang = request.param
    return lang, _read(LOCALE / lang / "LC_MESSAGES" / "tablelog.po")


def _fields(text: str) -> set[str]:
    return set(FIELD.findall(text))


NUMERIC = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*):[^{}]*[dnf,%][^{}]*\}")


def _sample(texts: tuple[str, ...]) -> dict[str, object]:
    """A value per field: a number where the field's format spec wants one (``{n:,}``)."""
    numbers = {name for text in texts for name in NUMERIC.findall(text)}
    return {name: 2 if name in numbers else f"<{name}>" for text in texts for name in _fields(text)}


def _ids(message: object) -> tuple[str, ...]:
    found = message.id  # type: ignore[attr-defined]
    return tuple(found) if isinstance(found, tuple | list) else (found,)


def _strings(message: object) -> tuple[str, ...]:
    found = message.string  # type: ignore[attr-defined]
    return tuple(found) if isinstance(found, tuple | list) else (found,)


def test_the_template_is_current_with_the_code(tmp_path: Path, template: Catalog) -> None:
    """Extracting again (as make catalogues does) finds exactly the committed template's
    entries: no sentence of the code, the help or the rules is missing from the catalogues."""
    import click

    out = tmp_path / "now.pot"
    subprocess.run(
        [
            str(Path(sys.executable).with_name("pybabel")),
            "-q",
            "extract",
            "-F",
            str(ROOT / "babel.cfg"),
            "-k",
            "msg:1c,2",
            "-k",
            "msgn:1c,2,3",
            "--no-location",
            "--omit-header",
            "-o",
            str(out),
            "tablelog",
            str(Path(click.__file__).parent),
        ],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    now = {(m.context, _ids(m)) for m in _read(out) if m.id}
    kept = {(m.context, _ids(m)) for m in template if m.id}
    assert sorted(now - kept, key=str) == [], "run make catalogues"
    assert sorted(kept - now, key=str) == [], "run make catalogues"


def test_each_template_id_names_one_template(template: Catalog) -> None:
    """A template id is one sentence: the same id never carries two English templates."""
    texts: dict[str, set[tuple[str, ...]]] = {}
    for message in template:
        if message.context and OWN.match(message.context):
            texts.setdefault(message.context, set()).add(_ids(message))
    assert {k: v for k, v in texts.items() if len(v) > 1} == {}


def test_every_entry_is_translated_not_fuzzy_with_the_same_placeholders(
    catalogue: tuple[str, Catalog], template: Catalog
) -> None:
    """In ja and ko every entry of the template has a translation (every plural form), none
    is fuzzy, and each names exactly the English template's placeholders."""
    lang, found = catalogue
    problems = []
    for message in template:
        if not message.id:
            continue
        done = found.get(message.id, context=message.context)
        where = f"{message.context or ''}|{_ids(message)[0][:60]}"
        if done is None or not all(_strings(done)):
            problems.append(f"untranslated: {where}")
            continue
        if done.fuzzy:
            problems.append(f"fuzzy: {where}")
        wanted = set().union(*(_fields(text) for text in _ids(message)))
        for text in _strings(done):
            if _fields(text) != wanted:
                problems.append(
                    f"placeholders {sorted(_fields(text))} != {sorted(wanted)}: {where}"
                )
    assert problems[:40] == [], f"{lang}: {len(problems)} problems"


def test_every_template_renders_in_every_language_without_english(
    catalogue: tuple[str, Catalog], template: Catalog
) -> None:
    """Each of the code's templates, with sample values, renders in ja and ko: no missing
    key, no traceback, and not the English words (a template with letters in it)."""
    lang, _ = catalogue
    words = Words(lang)
    english = Words("en")
    problems = []
    for message in template:
        if not message.context or not OWN.match(message.context):
            continue
        ids = _ids(message)
        sample = _sample(ids)
        if len(ids) > 1:
            made = Msg(message.context, ids[0], {**sample, "n": 2}, ids[1], "n")
        else:
            made = Msg(message.context, ids[0], sample)
        try:
            said = words(made)
        except (KeyError, IndexError, ValueError) as exc:
            problems.append(f"{message.context}: {exc!r}")
            continue
        if re.search(r"[A-Za-z]{3}", FIELD.sub("", ids[0])) and said == english(made):
            problems.append(f"{message.context}: still English: {said!r}")
    assert problems[:40] == [], f"{lang}: {len(problems)} problems"


def test_every_template_renders_in_english_with_sample_values(template: Catalog) -> None:
    """Each of the code's templates is a format string its own values fill (a literal brace is
    doubled): rendered with a sample for each field, it raises nothing."""
    words = Words("en")
    problems = []
    for message in template:
        if not message.context or not OWN.match(message.context):
            continue
        ids = _ids(message)
        sample = _sample(ids)
        plural = (ids[1], "n") if len(ids) > 1 else (None, None)
        try:
            words(Msg(message.context, ids[0], {**sample, "n": 2}, *plural))
        except (KeyError, IndexError, ValueError) as exc:
            problems.append(f"{message.context}: {exc!r}")
    assert problems == []


WEB_CALL = re.compile(r"""\btn?\(\s*"(web\.[A-Za-z0-9_.]+)\"""")


def test_every_page_text_is_in_the_template(template: Catalog) -> None:
    """Each ``t("web.…", …)`` and ``tn(…)`` call of the page's scripts is in the template:
    Babel's JavaScript reader skips a call inside a template literal (`${t(…)}`) or one with a
    template literal among its values, and the page would read that sentence in English."""
    scripts = (ROOT / "tablelog" / "web" / "static").glob("*.js")
    called = {found for path in scripts for found in WEB_CALL.findall(path.read_text("utf-8"))}
    extracted = {m.context for m in template if m.context}
    assert sorted(called - extracted) == []
