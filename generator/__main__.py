"""Lets `python -m pnpgen` run the CLI, and is the `pnpgen` script's entry (pyproject.toml): a Ctrl-C while
Python is still importing the CLI (a slow disk, a busy machine) ends quietly with the shell's 130, as one
during a command does, instead of a KeyboardInterrupt traceback."""
import atexit
import os
import sys

EXIT_SIGINT = 130


def run() -> int:
    try:
        from pnpgen.cli import main
    except KeyboardInterrupt:
        return EXIT_SIGINT
    return exit_now(main())


def exit_now(code: int) -> int:
    """End the process once the command is done: the exit functions run as at any exit (the measures' caches
    saved, workers joined) and the output is flushed, but Python's teardown, freeing every module's objects
    one by one, is skipped: it cost a build 70-80 ms after its work was done (a tenth of a cold build).
    Where anything of that goes wrong, `code` comes back and Python exits the usual way, saying it."""
    try:
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:  # noqa: BLE001 - a closed pipe, a Ctrl-C just now: the usual exit reports it
        return code
    os._exit(code)


if __name__ == "__main__":
    sys.exit(run())
