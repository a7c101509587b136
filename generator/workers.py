"""How a forked worker process starts: it dies with the process that forked it, leaves Ctrl-C to that
process and holds pnpgen's budgets. The parts' workers (pnpgen.run_parts) and the drawing pools inside a part
(pnpgen.render.piece_arts) both start so; kept apart from both so the drawing never imports the build."""
from __future__ import annotations

import os
import signal

from pnpgen import budgets

PR_SET_PDEATHSIG = 1  # prctl(2)


def die_with_parent(parent: int) -> None:
    """Ask the kernel to kill this forked worker when `parent` dies (Linux): a build killed outright (kill -9)
    must not leave workers running, or holding its output pipes open, after it."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # not Linux: the worker ends when its pool's pipe closes
        return
    if os.getppid() != parent:  # the parent died before the request was made
        os._exit(1)


def pool_worker(parent: int) -> None:
    """A drawing pool's worker (forked by a part): SIGTERM kills it at once, by the kernel, even where the
    part's process had a Python handler for it (a build of one part runs in the main process); Ctrl-C is
    the part's to handle."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(parent)
    budgets.worker_limits()
