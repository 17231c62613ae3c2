"""The wheel's build compiles the message catalogues (pyproject.toml [tool.setuptools.cmdclass]).

``build_py`` copies the package as setuptools does, then compiles each language's ``.po`` into
the ``.mo`` the package ships (tablelog/lang/catalog.py reads it), with Babel — never by hand.
An editable install (``pip install -e``, as ``make`` runs it) compiles them beside their sources
instead. Not part of the installed package.
"""

from __future__ import annotations

from pathlib import Path

from setuptools.command.build_py import build_py

LOCALE = Path("tablelog") / "lang" / "locale"


def compile_catalogues(source: Path, target: Path) -> None:
    """Compile every ``<lang>/LC_MESSAGES/tablelog.po`` under ``source`` into ``target``."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for po in sorted(source.glob("*/LC_MESSAGES/tablelog.po")):
        with po.open("rb") as stream:
            catalogue = read_po(stream)
        mo = target / po.relative_to(source).with_suffix(".mo")
        mo.parent.mkdir(parents=True, exist_ok=True)
        with mo.open("wb") as stream:
            write_mo(stream, catalogue)


class BuildPy(build_py):
    """setuptools' ``build_py``, then the catalogues compiled into the build."""

    def run(self) -> None:
        super().run()
        root = Path(__file__).resolve().parent
        if getattr(self, "editable_mode", False):
            compile_catalogues(root / LOCALE, root / LOCALE)
        else:
            compile_catalogues(root / LOCALE, Path(self.build_lib) / LOCALE)
