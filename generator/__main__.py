"""Lets `python -m pnpgen` run the CLI, and is the `pnpgen` script's entry (pyproject.toml): a Ctrl-C while
Python is still importing the CLI (a slow disk, a busy machine) ends quietly with the shell's 130, as one
during a command does, instead of a KeyboardInterrupt traceback."""
import sys

EXIT_SIGINT = 130


def run() -> int:
    try:
        from pnpgen.cli import main
    except KeyboardInterrupt:
        return EXIT_SIGINT
    return main()


if __name__ == "__main__":
    sys.exit(run())
