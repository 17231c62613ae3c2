"""The command box's suggestions from a second fresh tester (issue 18): every word a suggestion
fills in is quoted as a run script reads it, and no suggestion is one the rules refuse on the
page's state. Each test failed before its fix, in headless Chromium against `tablelog serve`."""

from __future__ import annotations

import json
from typing import Any

from tests.support.server import ADD
from tests.web.test_faults import gm_page


def offered(page: Any) -> list[str]:
    return list(page.eval_on_selector_all("#suggestions option", "os => os.map(o => o.value)"))


def preview(page: Any, line: str) -> str:
    """Put ``line`` in the command box as a chosen suggestion, press Preview, return the result."""
    page.evaluate("document.querySelector('#result').textContent = ''")
    page.fill("#command", line)
    page.click("#preview")
    page.wait_for_function("document.querySelector('#result').textContent.length > 0")
    return str(page.inner_text("#result"))


NAMES = ["Lady Ann", "O'Brien", 'Say "hi"', "<b>x</b>"]


def test_a_suggestion_quotes_each_name_it_fills_in(browser: Any, server: str) -> None:
    """Characters `Lady Ann`, `O'Brien`, `Say "hi"` and `<b>x</b>`: each draw suggestion names
    the character as one quoted word, and its Preview draws a card (no usage error)."""
    lines = [ADD.format(json.dumps(n)) for n in NAMES]
    page = gm_page(browser, server, "magicpunk", lines)
    draws = [s for s in offered(page) if s.startswith("magicpunk draw ")]
    assert draws == [
        'magicpunk draw "Lady Ann" 1',
        'magicpunk draw "O\'Brien" 1',
        'magicpunk draw "Say \\"hi\\"" 1',
        'magicpunk draw "<b>x</b>" 1',
    ]
    for line, name in zip(draws, NAMES, strict=True):
        said = preview(page, line)
        assert said.startswith("Preview — nothing appended:"), (line, said)
        assert f"{name} draws" in said and f"{name} Hand" in said, (line, said)


FATE = [
    "fate master add Kiritsugu --quality B --quantity C --crest D --attribute fire "
    "--attribute earth --hp 40 --mp 30 --cc-budget 20",
    "fate servant add Saber --hp 60 --mp 80 --np-budget 15",
    "fate phantasm add Saber excalibur --grade A++ --type anti-fortress",
    "fate servant add Rider --hp 70 --mp 90",
]


def test_fate_suggestions_are_casts_the_master_can_make_and_nps_the_servant_holds(
    browser: Any, server: str
) -> None:
    """Kiritsugu (attack power 3, no curse) is offered attacks at grade 3, no grade 5 and no
    curse; servants cast nothing; Saber releases excalibur, Rider (no NP) releases nothing; each
    cast and release offered previews without an error."""
    page = gm_page(browser, server, "fate", FATE)
    lines = offered(page)
    attacks = [s for s in lines if s.startswith("fate cast Kiritsugu attack")]
    assert "fate cast Kiritsugu attack --grade 3 --tiles 2 --target Saber" in attacks
    assert [s for s in lines if "--grade 5" in s and " attack " in s] == []
    assert [
        s for s in lines if "curse" in s or s.startswith(("fate cast Saber", "fate cast Rider"))
    ] == []
    assert [s for s in lines if "Rider" in s and "release" in s] == []
    assert [s for s in lines if s.startswith("fate release")] == [
        "fate release Saber excalibur --target Kiritsugu"
    ]
    for line in [s for s in lines if s.startswith(("fate cast", "fate release"))]:
        said = preview(page, line)
        assert said.startswith("Preview — nothing appended:"), (line, said)
