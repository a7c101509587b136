"""What the command line and its commands (`diff`, `build --watch`, `serve`) share: a kit loaded from the
command's arguments, the build options they ask for, its problems printed, a failure nothing located said in
words, where lasting grants live. Kept apart from pnpgen.cli so a command imports these, never the CLI that
imports it."""
from __future__ import annotations

import sys
from pathlib import Path

from pnpgen.kit_folder import find_kit


def unexpected_failure(exc: BaseException) -> str:
    """A failure no step of the build turned into a located error, said as well as it can be."""
    from pnpgen import budgets
    if isinstance(exc, MemoryError):
        return str(budgets.memory_error(""))
    if isinstance(exc, RecursionError):
        return "the kit nests too deep (a macro, include or data that refers to itself?); nothing was changed"
    if isinstance(exc, OSError):
        return (f"{exc.filename or 'a file'}: {exc.strerror or exc}: check that the folder exists, is writable "
                f"and that the disk has room; nothing was changed")
    return f"{type(exc).__name__}: {exc} (pnpgen could not say where: please report it with the kit); nothing was changed"


def config_shown() -> str:
    from pnpgen.budgets import config_file
    return str(config_file()).replace(str(Path.home()), "~", 1)


def load(args, root: Path | None = None):
    kit, warnings = load_quietly(args, root)
    report_problems(warnings)
    return kit


def load_quietly(args, root: Path | None = None, texts: bool = True, inputs=None):
    """(kit, its warnings): the warnings are the caller's to print. `texts`: pnpgen.kit.load_kit's.
    `inputs`: every file the build reads, hashed (pnpgen.inputs.Inputs): the texts' checks are then skipped
    when the same files read the same way were found clean before (pnpgen.kit_checked)."""
    from pnpgen.kit import load_kit
    root = root or find_kit(args.kit, args.data)
    counter_size = getattr(args, "counter_size", None)
    if counter_size is not None:
        from pnpgen.build import check_counter_size
        check_counter_size(counter_size)  # out of range: a wrong command line (exit 2), before any loading
    how = dict(strict=args.strict, sizes=_piece_sizes(getattr(args, "piece_size", None)),
               counter_size=counter_size, language=one_language(args, root))
    if not (texts and inputs is not None):
        return load_kit(root, texts=texts, **how)
    from pnpgen.kit_checked import CheckedKits, load_key, note_load
    memo, key = CheckedKits(root), load_key(inputs.fingerprint(), tuple(sorted(how.items(), key=str)))
    seen_clean = memo.clean(key)
    kit, warnings = load_kit(root, texts=not seen_clean, **how)
    if not (seen_clean or warnings):
        memo.remember(key)
    note_load(kit, key)
    return kit, warnings


def one_language(args, root: Path) -> str | None:
    """The edition a command reads (None: the source); `all` is for build only."""
    from pnpgen.i18n.editions import ALL, requested
    language = getattr(args, "lang", None)
    if language == ALL:
        raise ValueError(f"--lang all builds every edition: `pnpgen build --lang all`; {args.command} reads one "
                         f"edition at a time (--lang fr)")
    return requested(root, language)[0]


def _piece_sizes(values) -> dict:
    sizes = {}
    for value in values or ():
        table, sep, size = value.partition("=")
        if not sep or not table.strip() or not size.strip():
            raise ValueError(f"--piece-size wants TABLE=SIZE such as sectors=80mm, not {value!r}")
        sizes[table.strip()] = size.strip()
    return sizes


BUILD_ARGS = {"kit", "data", "strict", "lang", "budget", "out", "paper", "counter_size", "only", "quiet", "verbose",
              "watch", "run", "command", "port", "open", "given", "rebuilds"}
RECORDED_ARGS = {"paper", "counter_size"}  # of BUILD_ARGS, those the manifest records (with the parts' options)


def build_options(args):
    """The build a command line asks for (`build` and `serve` alike): the build's own options by name, every
    other option the parts' `extra`, and of the options given, those the manifest records."""
    from pnpgen.build_options import BuildOptions
    extra = {k: v for k, v in vars(args).items() if k not in BUILD_ARGS}
    given = getattr(args, "given", None)  # None: called without a command line, every option set is given
    return BuildOptions(out=Path(args.out), paper=args.paper, counter_size=args.counter_size,
                        only=args.only, extra=extra, strict=args.strict,
                        given=None if given is None else tuple(n for n in given if n in RECORDED_ARGS or n in extra))


def report_problems(problems) -> None:
    for problem in problems:
        print(problem, file=sys.stderr)
    errors = sum(p.severity == "error" for p in problems)
    if errors:
        print(f"{errors} error(s); nothing was built or changed.", file=sys.stderr)
