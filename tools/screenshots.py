"""The screenshots of docs/img (``make screenshots``): each system's example session served by a
real ``tablelog serve``, seen by its GM on a desktop (1280×900) and by a player on a phone
(390×844) in the language of a table that plays it (Japanese, Korean or English), in headless
Chromium (Debian's, as the browser tests: tests/support/browser.py).

Usage: ``python -m tools.screenshots [OUT_DIR]`` (default docs/img). Writes
``<system>-gm-desktop.png`` and ``<system>-player-phone.png``; prints each path.
"""

from __future__ import annotations

import shlex
import sys
import tempfile
from pathlib import Path
from typing import Any

from tests.support.browser import ARGS, CHROMIUM
from tests.support.server import api, serving

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = {  # system: its example, the character the player's seat plays, the phone's language
    "fate": ("fate-fourth-war.txt", "Tokiomi", "ja"),
    "magicpunk": ("magicpunk-rest-stop.txt", "Aria", "ja"),
    "pf2e": ("pf2e-downtime.txt", "Valeros", "en"),
    "saga": ("saga-wolf-road.txt", "Amy", "ko"),
}


def table_of(server: str, system: str, script: str) -> str:
    """A new table of ``system`` that ran the example ``script``'s commands; its id."""
    gm = api(server)
    lines = []
    title, seed = "", 7
    options: dict[str, str] = {}
    for raw in (ROOT / "examples" / script).read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("init "):
            words = shlex.split(line)[1:]
            given = dict(zip(words[::2], words[1::2], strict=False))
            title = given.pop("--title", "")
            seed = int(given.pop("--seed", seed))
            options = {k.lstrip("-"): v for k, v in given.items() if k != "--system"}
            continue
        lines.append(line)
    made = gm.post(
        "/tables", json={"system": system, "title": title, "seed": seed, "options": options}
    )
    assert made.status_code == 201, made.text
    tid = str(made.json()["table_id"])
    for line in lines:
        done = gm.post(f"/tables/{tid}/commands", json={"command": line})
        assert done.status_code in (200, 201), (line, done.text)
    return tid


def main(out: Path, chromium: Any = None) -> list[Path]:
    """Write the screenshots into ``out``; return their paths. ``chromium``: a launched
    Playwright browser (the tests'), else one is started here."""
    if chromium is None:
        from playwright.sync_api import sync_playwright

        play = sync_playwright().start()
        try:
            return main(out, play.chromium.launch(executable_path=CHROMIUM, args=ARGS))
        finally:
            play.stop()
    out.mkdir(parents=True, exist_ok=True)
    made = []
    with (
        tempfile.TemporaryDirectory() as folder,
        serving(f"file:{folder}/tables", Path(folder) / "server.txt") as server,
    ):
        for system, (script, player, lang) in EXAMPLES.items():
            tid = table_of(server, system, script)
            gm = api(server)
            seats = {
                "gm": gm.post(f"/tables/{tid}/seats", json={"name": "gm2", "role": "gm"}),
                "player": gm.post(
                    f"/tables/{tid}/seats",
                    json={"name": "ann", "role": "player", "characters": [player]},
                ),
            }
            for kind, (width, height), locale in (
                ("gm", (1280, 900), "en"),
                ("player", (390, 844), lang),
            ):
                answer = seats[kind]
                assert answer.status_code == 201, answer.text
                context = chromium.new_context(
                    viewport={"width": width, "height": height},
                    device_scale_factor=1,
                    locale=locale,
                )
                page = context.new_page()
                page.goto(answer.json()["url"])
                page.wait_for_function("window.tablelog && window.tablelog.ready")
                page.wait_for_timeout(500)
                path = out / f"{system}-{kind}-{'desktop' if kind == 'gm' else 'phone'}.png"
                page.screenshot(path=str(path))
                context.close()
                made.append(path)
    return made


if __name__ == "__main__":
    for written in main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "img"):
        print(written)
