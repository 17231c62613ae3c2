"""Record a system's frozen log (`make frozen SYSTEM=…`, tests/integration/test_frozen.py).

``python -m tools.frozen SYSTEM [--root DIR]`` plays the system's campaign script
(tests/data/campaigns/SYSTEM.txt) on a new log in the current format, the way a table would
(``tablelog --log … run``), and keeps it as tests/data/frozen/format-N/SYSTEM-campaign.tlog
beside the ``state --json`` it prints (``….state.json``), with its line in SHA256SUMS. A frozen
log is never made again: the command refuses to replace one (a new format version gets its own
folder).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
from pathlib import Path

from tablelog.store.format import FORMAT_VERSION

ROOT = Path(__file__).resolve().parents[1]


def _tablelog(root: Path, log: Path, *args: str) -> str:
    """Run ``tablelog --log LOG ARGS`` from the tree ``root``; return its output."""
    env = {**os.environ, "PYTHONPATH": str(root), "TABLELOG_LANG": "en"}
    for unset in ("TABLELOG_LOG", "TABLELOG_ACTOR", "TZ"):
        env.pop(unset, None)
    done = subprocess.run(
        [sys.executable, "-m", "tablelog", "--log", str(log), *args],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"tablelog {' '.join(args)}: exit {done.returncode}\n{done.stderr}")
    return done.stdout


def record(system: str, root: Path) -> Path:
    """Play the campaign of ``system`` into its frozen log, its state and its checksum.

    Args:
        system: A registered system with a campaign script in ``root``.
        root: The repository tree.

    Returns:
        The frozen log written.

    Raises:
        ValueError: no campaign script, or the frozen log exists already.
        RuntimeError: the script or ``state --json`` failed (their error output).
    """
    script = root / "tests" / "data" / "campaigns" / f"{system}.txt"
    frozen = root / "tests" / "data" / "frozen"
    log = frozen / f"format-{FORMAT_VERSION}" / f"{system}-campaign.tlog"
    if not script.exists():
        raise ValueError(f"no campaign script {script.relative_to(root)}")
    if log.exists():
        raise ValueError(f"{log.relative_to(root)} is frozen already: it is never made again")
    log.parent.mkdir(parents=True, exist_ok=True)
    try:
        _tablelog(root, log, "run", str(script))
        state = _tablelog(root, log, "state", "--json")
    except RuntimeError:
        log.unlink(missing_ok=True)
        raise
    finally:
        for extra in (".lock", ".snap"):
            log.with_name(log.name + extra).unlink(missing_ok=True)
    log.with_suffix(".state.json").write_text(state, "utf-8")
    sums = frozen / "SHA256SUMS"
    lines = sums.read_text("utf-8").splitlines() if sums.exists() else []
    digest = hashlib.sha256(log.read_bytes()).hexdigest()
    lines.append(f"{digest}  {log.relative_to(frozen)}")
    sums.write_text("".join(f"{line}\n" for line in sorted(lines, key=lambda s: s.split()[1])))
    return log


def main(argv: list[str] | None = None) -> int:
    """Record the frozen log of the system named; print its path."""
    parser = argparse.ArgumentParser(prog="python -m tools.frozen", description=__doc__)
    parser.add_argument("system", help="a registered system with a campaign script")
    parser.add_argument("--root", type=Path, default=ROOT, help="the tree (default: this one)")
    args = parser.parse_args(argv)
    try:
        print(record(args.system, args.root.resolve()))
    except (ValueError, RuntimeError) as exc:
        print(f"frozen: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
