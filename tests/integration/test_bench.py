"""The benchmarks still run against today's code (they are not part of `make test`, so an API
they use can change under them): each module imports, and each system's real-system campaign
(bench/campaigns.py, the headline of `make bench`) is written, framed and replayed, small."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from tablelog.session import Session
from tablelog.systems import REGISTRY

BENCH = Path(__file__).resolve().parents[2] / "bench"
MODULES = sorted(p.stem for p in BENCH.glob("*.py"))
BENCH_ONLY = {"eventsourcing"}  # pyproject.toml's `bench` extra, beyond `test`


@pytest.fixture(scope="module")
def bench_path() -> object:
    sys.path.insert(0, str(BENCH))
    yield
    sys.path.remove(str(BENCH))


@pytest.mark.parametrize("name", MODULES)
def test_each_benchmark_module_imports(bench_path: object, name: str) -> None:
    """Importing runs nothing (each has a ``__main__`` guard) but binds every name it uses. A
    module that needs a package of the ``bench`` extra only (``make bench`` installs it, `make
    test` does not) is compiled instead."""
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        assert exc.name in BENCH_ONLY, exc
        path = BENCH / f"{name}.py"
        compile(path.read_text(encoding="utf-8"), str(path), "exec")
        return
    assert module.__file__ is not None and Path(module.__file__).parent == BENCH


@pytest.mark.parametrize("system", list(REGISTRY))
def test_a_small_campaign_is_written_and_replays_as_make_bench_times_it(
    bench_path: object, system: str, tmp_path: Path
) -> None:
    """300 events of the system's campaign: plain decoding and the replay see them all."""
    campaigns = importlib.import_module("campaigns")
    run = importlib.import_module("run")
    assert system in campaigns.SYSTEMS
    path = tmp_path / f"{system}.tlog"
    campaigns.write_campaign(system, 300, path)
    assert run.raw_decode(path) >= 300
    assert run.replay(path) == run.raw_decode(path) == Session(str(path)).state().seq
