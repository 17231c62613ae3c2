"""Instructions per record of the replay's stages, counted by valgrind (deterministic, unlike
wall time on a shared machine). Not part of ``make bench``: run ``python bench/instructions.py``
where ``valgrind`` is installed (≈2 minutes).

Each stage runs over a 20,000-event toy log once and twice under ``valgrind --tool=callgrind``;
the difference, divided by 20,000, is what one record costs in that stage:
- ``raw``: plain decoding (as ``bench/run.py`` measures it: read each frame, ``unpackb``);
- ``records``: tablelog's reader (framing, CRC-32, envelope check, BLAKE2b chain);
- ``replay``: a whole fold to a state (the reader, building events, evolving).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]
N = 20000
STAGES = ("raw", "records", "replay")


def stage(name: str, path: str) -> None:
    """Run stage ``name`` over the log at ``path`` once."""
    import logs  # noqa: F401 - installs the toy system
    from run import raw_decode

    from tablelog.session import Session
    from tablelog.store.log import LogFile

    if name == "raw":
        raw_decode(Path(path))
    elif name == "records":
        for _ in LogFile(path).records():
            pass
    else:
        Session(path, snapshots=False).state()


def count(name: str, path: str, times: int) -> int:
    """Return the instructions valgrind counts for a process running the stage ``times``."""
    code = (
        f"import sys; sys.path[:0] = {[str(HERE), str(HERE.parent)]!r}; import instructions;"
        f"[instructions.stage({name!r}, {path!r}) for _ in range({times})]"
    )
    done = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            "-c",
            code,
        ],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    return int(re.search(r"Collected : (\d+)", done.stderr).group(1))  # type: ignore[union-attr]


def main() -> None:
    import logs

    path = str(HERE / "work" / "instructions.tlog")
    (HERE / "work").mkdir(exist_ok=True)
    logs.make_log(path, N, markers=False)  # no undo at the end: one pass, as on 1M events
    jobs = [(name, times) for name in STAGES for times in (1, 2)]
    with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        counts = dict(
            zip(jobs, pool.map(lambda job: count(job[0], path, job[1]), jobs), strict=True)
        )
    per = {name: (counts[(name, 2)] - counts[(name, 1)]) / N for name in STAGES}
    for name in STAGES:
        print(f"{name:<8}{per[name]:>10,.0f} instructions/record")
    print(f"replay ÷ raw by instructions: {per['raw'] / per['replay']:.3f}")


if __name__ == "__main__":
    main()
