"""Command line: `pnpgen validate | list | build | serve | proof | new`. The only place that prints problems and picks exit codes."""
from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import threading
from pathlib import Path

from pnpgen import __version__
from pnpgen.cli_common import (BUILD_ARGS, RECORDED_ARGS, build_options, config_shown, load, load_quietly, one_language,
                               report_problems, unexpected_failure)
from pnpgen.kit_folder import DEFAULT_KIT, bundled_kits, find_kit
from pnpgen.parts import all_parts
from pnpgen.problems import BuildError, KitError
from pnpgen.progress import Progress
from pnpgen.terminal import safe_output

# The kit loader, the build and what they import (YAML, Jinja, the schemas) load inside the commands that use
# them: a build that finds its output up to date never needs them.

EXIT_OK, EXIT_DATA, EXIT_USAGE = 0, 1, 2
EXIT_SIGINT, EXIT_SIGPIPE, EXIT_SIGTERM = 130, 141, 143  # the shell's 128 + signal number


class Terminated(BaseException):
    """SIGTERM, raised where the program is so the build unwinds (stage removed) like it does on Ctrl-C."""


_MAIN_PID = os.getpid()


def _raise_terminated(signum, frame):
    if os.getpid() != _MAIN_PID:  # a forked worker (its pool stops it with SIGTERM): die quietly, as by default
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)
        return
    raise Terminated()


def main(argv: list[str] | None = None) -> int:
    """The command `argv` asks for; everything it prints goes out with control characters escaped
    (pnpgen.terminal: a kit's file names and texts are a stranger's)."""
    with safe_output():
        return _main(argv)


def _main(argv: list[str] | None) -> int:
    parser = command_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return EXIT_USAGE
    if args.command in ("build", "serve"):
        args.given = given_options(sys.argv[1:] if argv is None else argv, parser)  # (its last use)
    global _MAIN_PID
    _MAIN_PID = os.getpid()
    in_main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _raise_terminated) if in_main_thread else None
    try:
        return _run(args)
    except KeyboardInterrupt:
        print("interrupted: nothing half-written was left; the output folder holds the last complete build",
              file=sys.stderr)
        return EXIT_SIGINT
    except Terminated:
        print("terminated: nothing half-written was left; the output folder holds the last complete build",
              file=sys.stderr)
        return EXIT_SIGTERM
    finally:
        if in_main_thread:
            signal.signal(signal.SIGTERM, previous if previous is not None else signal.SIG_DFL)


def _run(args) -> int:
    """The command; after a failure, cairo's font caches are made whole for the process's next build
    (pnpgen.render.font_reset: a FreeType error would otherwise fail every later text)."""
    code = _run_command(args)
    if code != EXIT_OK:
        from pnpgen.render.font_reset import forget_failed_fonts
        forget_failed_fonts()
    return code


def _reader_gone() -> int:
    """`pnpgen build | head`: the reader closed the pipe. Not a file error (it said "nothing was built" of a build
    that had landed, and exited 1): the shell's quiet 141, with stdout sent nowhere so the exit's flush is quiet."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return EXIT_SIGPIPE


def _stdout_gone() -> bool:
    """Whether the reader of our standard output has closed it (the pipe's write end then polls as an error)."""
    import select
    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
        return any(events & (select.POLLERR | select.POLLHUP) for _, events in poller.poll(0))
    except (OSError, ValueError, AttributeError):   # no real file behind stdout (a test's capture)
        return False


def _run_command(args) -> int:
    """The command under the machine budgets (pnpgen.budgets); whatever goes wrong is said in words, never as
    a traceback."""
    from pnpgen import budgets
    try:
        rebuilds = getattr(args, "watch", False) or getattr(args, "rebuilds", False)
        with _granted(args), contextlib.nullcontext() if rebuilds else budgets.enforced():
            return args.run(args)  # (a watch or a studio holds each build to the budgets afresh)
    except KitError as exc:
        report_problems(exc.problems)
        return EXIT_DATA
    except BuildError as exc:
        _report_failure(str(exc), exc.problem_count())
        return EXIT_DATA
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except Exception as exc:  # noqa: BLE001 - the last guard: a located message, exit 1, output untouched
        if isinstance(exc, BrokenPipeError) and _stdout_gone():  # not a worker's pipe, say: that is a failure
            return _reader_gone()
        from pnpgen.cairo_missing import HOW_TO_GET_CAIRO, is_missing_cairo
        if isinstance(exc, OSError) and is_missing_cairo(exc):
            print(HOW_TO_GET_CAIRO, file=sys.stderr, end="")
            return EXIT_DATA
        _report_failure(unexpected_failure(exc), 1)
        return EXIT_DATA


def _granted(args):
    """The budgets the user grants a command that reads a kit (--budget, their budgets.yaml); a kit may lower
    them, never raise them (pnpgen.budget_grants)."""
    from pnpgen import budgets
    if not hasattr(args, "budget"):
        return contextlib.nullcontext()
    from pnpgen.budget_grants import granted
    return budgets.granted(granted(args.budget))


def _report_failure(message: str, count: int) -> None:
    """A failure found while building, closed by the same line as the problems found while loading
    (report_problems), so every failed build ends alike."""
    print(f"error: {message}", file=sys.stderr)
    print(f"{count} error(s); nothing was built or changed.", file=sys.stderr)


def command_parser() -> argparse.ArgumentParser:
    """The command line: every command, its options and their defaults (pnpgen.reference prints it)."""
    parser = argparse.ArgumentParser(prog="pnpgen", description="Print-and-play kit generator for 4X space games.")
    parser.add_argument("--version", action="version", version=f"pnpgen {__version__}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", dest="command")

    validate = commands.add_parser("validate", help="check a kit's data, schema and rule counts, and everything a build "
                                                    "checks (text fit, preflight, every template), writing nothing")
    _kit_arguments(validate)
    validate.add_argument("--quick", action="store_true",
                          help="check the data, schemas, counts and texts only (no scratch build: text fit, "
                               "preflight and drawn templates are not checked)")
    _read_only_out(validate)
    validate.set_defaults(run=_validate)

    listing = commands.add_parser("list", help="print the component inventory")
    _kit_arguments(listing)
    _read_only_out(listing)
    listing.set_defaults(run=_list)

    build_cmd = commands.add_parser("build", help="build the kit's printable files into --out")
    _build_arguments(build_cmd)
    build_cmd.add_argument("--watch", action="store_true", help="rebuild on every change to the data or templates")
    loudness = build_cmd.add_mutually_exclusive_group()
    loudness.add_argument("--quiet", "-q", action="store_true", help="print nothing but errors")
    loudness.add_argument("--verbose", "-v", action="store_true", help="print every step")
    build_cmd.set_defaults(run=_build)

    serve = commands.add_parser("serve", help="a live preview in the browser: every page and piece, rebuilt on save")
    _build_arguments(serve)
    serve.add_argument("--port", type=int, default=8765, help="port on 127.0.0.1 (default: 8765; 0 picks a free one)")
    serve.add_argument("--open", action="store_true", help="open the page in the default browser")
    serve.set_defaults(run=_serve, rebuilds=True)  # runs for hours: budgets per build, not per command

    proof = commands.add_parser("proof", help="draw single pieces (counters, cards, tokens, tiles) at print size, with cut line and safe zone")
    _kit_arguments(proof)
    proof.add_argument("--only", metavar="REF,...",
                       help="pieces to proof by ref, such as cards.scout or units.DD,deep-space-markers.danger; units.DD:3 is "
                            "copy 3 of a numbered table "
                            "(default: one of every kind of piece)")
    proof.add_argument("--colour", "--color", dest="colour", help="player colour to proof (default: the kit's first)")
    proof.add_argument("--dpi", type=float, default=300.0, help="resolution of the PNGs (default: 300)")
    proof.add_argument("--counter-size", help="counter size such as 5/8in or 1/2in: every square table "
                                              "(default: the tables' own)")
    proof.add_argument("--out", default="output", help="output folder (default: output); proofs land in OUT/<kit>/proofs")
    proof.set_defaults(run=_proof)

    words = commands.add_parser("translate", help="extract the kit's printed words into locale/messages.pot and "
                                                   "merge them into locale/LANG.po (new, changed: fuzzy, gone: obsolete)")
    words.add_argument("kit", nargs="?", default=None, help="a kit folder (default: the current kit)")
    words.add_argument("--data", metavar="DIR", help="your own kit folder (overrides KIT)")
    words.add_argument("--lang", required=True, metavar="LANG", help="a language the kit declares, not its first")
    words.set_defaults(run=_translate)

    new = commands.add_parser("new", help="copy a kit (data and templates) into your own folder")
    new.add_argument("folder", help="the new kit folder (must not exist, or be empty)")
    new.add_argument("--from", dest="source", default=None, metavar="KIT",
                     help=f"the kit to copy: a bundled kit ({', '.join(bundled_kits())}) or a kit folder "
                          f"(default: {DEFAULT_KIT})")
    new.add_argument("--no-templates", action="store_true", help="copy the data only; use the built-in templates")
    new.add_argument("--blank", action="store_true",
                     help="start a new game instead: a deck of cards, round tokens, hex tiles, a board and rules")
    new.set_defaults(run=_new)

    from pnpgen.export.reprint import add_command as add_diff_command
    add_diff_command(commands, _kit_arguments)
    return parser


def _build_arguments(cmd: argparse.ArgumentParser) -> None:
    """What `build` and `serve` share: the kit, where the output goes and every part's options."""
    _kit_arguments(cmd)
    cmd.add_argument("--out", default="output", help="output folder (default: output); the kit lands in OUT/<kit>")
    cmd.add_argument("--paper", choices=("letter", "a4"), help="paper size (default: the kit's)")
    cmd.add_argument("--counter-size", help="counter size such as 5/8in or 1/2in: every square table "
                                            "(default: the tables' own)")
    cmd.add_argument("--only", metavar="PART,...", help="build only these parts: " + _part_names())
    for part in all_parts():
        for option in part.options:
            cmd.add_argument(*option.flags, **option.kwargs)


def given_options(argv: list[str], parser: argparse.ArgumentParser | None = None) -> tuple[str, ...]:
    """The names of the options the command line gives (a default argparse filled in is not one), for the
    manifest to record: a reprint replays what the user gave, not what a default then was. `parser`: one
    made for this command line and not used after (its defaults are taken away), else a new one."""
    parser = parser or command_parser()
    for each in _parsers(parser):
        each.set_defaults(**{name: argparse.SUPPRESS for name in each._defaults})
        for action in each._actions:
            action.default = argparse.SUPPRESS
    return tuple(sorted(set(vars(parser.parse_args([str(a) for a in argv]))) - (BUILD_ARGS - RECORDED_ARGS)))


def _parsers(parser: argparse.ArgumentParser):
    """The parser and every subcommand's."""
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from _parsers(sub)


def _part_names() -> str:
    return ", ".join(p.name for p in all_parts()) or "(none yet)"


def _kit_arguments(cmd: argparse.ArgumentParser) -> None:
    cmd.add_argument("kit", nargs="?", default=None,
                     help=f"a kit folder, or a bundled kit: {', '.join(bundled_kits())} (default: {DEFAULT_KIT})")
    cmd.add_argument("--data", metavar="DIR", help="your own kit folder (overrides KIT)")
    cmd.add_argument("--strict", action="store_true", help="treat warnings as errors")
    cmd.add_argument("--lang", metavar="LANG", default=None,
                     help="the edition: one of the kit's languages (kit.yaml languages:; default: its first, the "
                          "source); build takes `all`, each edition into its own folder OUT/<kit>.<lang>")
    cmd.add_argument("--piece-size", action="append", default=None, metavar="TABLE=SIZE",
                     help="print a component table at another size, e.g. sectors=80mm or cards=bridge (repeatable)")
    cmd.add_argument("--budget", action="append", default=None, metavar="NAME=VALUE",
                     help="grant the kit more (or less) of a budget than the default, e.g. memory_mb=4096 or "
                          "cpu_seconds=900 (repeatable; budgets: " + ", ".join(_budget_names()) + "); a kit's own "
                          "kit.yaml may only lower its budgets. Lasting grants: NAME: VALUE lines in "
                          + config_shown())


def _budget_names() -> list[str]:
    from pnpgen.budgets import DOCS
    return list(DOCS)


def _read_only_out(cmd: argparse.ArgumentParser) -> None:
    cmd.add_argument("--out", default="output",
                     help="the output folder your builds use (default: output): never read as the kit's input")


def _keep_output_out(args) -> Path:
    """The kit's root, with OUT/<kit> and OUT/.cache kept out of what the kit reader reads: `validate` and
    `list` read the kit as a build does, so a kit that builds into itself reads back none of its output."""
    from pnpgen import up_to_date
    from pnpgen.out_folder import keep_out_of_input
    from pnpgen.i18n.editions import requested
    root = find_kit(args.kit, args.data)
    for language in requested(root, "all"):  # every edition's output: none is ever another's input
        keep_out_of_input(Path(args.out), up_to_date.kit_out_guess(Path(args.out), root, language).name)
    return root


def _validate(args) -> int:
    """The data checked, then built into a scratch folder (pnpgen.build.check_by_building): what build would
    stop on (text that does not fit, preflight, a template's error), validate stops on too."""
    from pnpgen.build import check_by_building
    from pnpgen.build_options import BuildOptions
    kit = load(args, _keep_output_out(args))
    if not args.quick:
        for warning in check_by_building(kit, BuildOptions(strict=args.strict)).warnings:
            print(f"warning: {warning}", file=sys.stderr)
    counted = [(len(kit.component_pieces), "piece"), (len(kit.tables), "table"), (len(kit.boards), "board"),
               (len(kit.maps), "hex map"), (len(kit.documents or {}), "document")]
    said = [f"{n} {word}{'' if n == 1 else 's'}" for n, word in counted]
    print(f"{kit.title}: the data is valid ({said[0]} in {', '.join(said[1:])}).")
    return EXIT_OK


def _list(args) -> int:
    from pnpgen.components.listing import component_listing
    kit = load(args, _keep_output_out(args))
    colours = ", ".join(c.name for c in kit.colours) or "none"
    head = [f"{kit.title}" + (f": {kit.subtitle}" if kit.subtitle else ""),
            f"Players {kit.players[0]}-{kit.players[1]}; colours {colours}", ""]
    sys.stdout.write("\n".join(head + component_listing(kit, _declared_checks(kit.root))) + "\n")
    return EXIT_OK


def _declared_checks(root: Path) -> list:
    """kit.yaml's `checks:` as written (the kit loaded, so it reads), for `list` to find the names they tie
    a table's column to."""
    from pnpgen.kit_folder import KIT_FILE
    from pnpgen.yamlio import load_yaml
    checks = load_yaml(Path(root) / KIT_FILE, Path(root)).get("checks")
    return checks if isinstance(checks, list) else []


def _build(args) -> int:
    options = build_options(args)
    progress = Progress(quiet=args.quiet, verbose=args.verbose)
    root = find_kit(args.kit, args.data)
    if args.watch:
        from pnpgen.watch import watch
        built = []  # the parts of the last build: their libraries are loaded while the watcher waits
        from pnpgen.run_parts import between_builds
        return watch(root, options.out, lambda: _build_once(args, root, options, progress, built),
                     idle=lambda: between_builds(built))
    from pnpgen.i18n.editions import requested
    for language in requested(root, args.lang):  # --lang all: the source, then each translation
        edition = argparse.Namespace(**{**vars(args), "lang": language})
        said, seconds = _build_or_reuse(edition, root, options, progress)
        for warning in said.warnings:
            print(f"warning: {warning}", file=sys.stderr)
        if not args.quiet:
            print(f"Built {said.title} ({', '.join(said.parts) or 'manifest only'}) into {said.kit_out} "
                  f"in {seconds:.2f} s{_paper_words(Path(said.kit_out))}:")
            _print_files(Path(said.kit_out), said.files)
    return EXIT_OK


def _paper_words(kit_out: Path) -> str:
    """A kit's own paper, said when it is not the user's usual one (pnpgen.usual_paper)."""
    from pnpgen.paper_use import read_manifest
    from pnpgen.usual_paper import paper_said, usual_paper
    return paper_said(read_manifest(kit_out), usual_paper())


def _print_files(kit_out: Path, files: list) -> None:
    """Every file written, with the pages and sheets of paper it takes (from the manifest)."""
    from pnpgen.paper_use import paper_of_files
    paper = paper_of_files(kit_out)
    for path in files:
        rel = Path(path).relative_to(kit_out).as_posix() if Path(path).is_relative_to(kit_out) else path
        print(f"  {path}" + (f"  ({paper[rel]})" if rel in paper else ""))


def _build_or_reuse(args, root: Path, options, progress: Progress) -> tuple:
    """The build, or what the last one said when nothing it read has changed and its output is intact
    (pnpgen.up_to_date): the kit is then neither loaded nor validated, and nothing is drawn.
    (what was said, seconds)"""
    import time

    from pnpgen import up_to_date
    from pnpgen.inputs import Inputs
    start = time.perf_counter()
    from pnpgen.out_folder import check_out
    language = one_language(args, root)
    key_options = {**options.__dict__, "out": str(options.out), "lang": language}
    kit_out = up_to_date.kit_out_guess(options.out, root, language)
    check_out(options.out, root, kit_out.name)  # before anything under --out is read (the build checks again)
    memo = up_to_date.digest_memo(root)
    inputs = Inputs(root, kit_out, memo)
    said = up_to_date.reusable(options.out, root, key_options, inputs, language)
    if said is not None:
        inputs.keep_memo()
        for problem in said.problems:  # only warnings: a kit with errors never built
            print(problem, file=sys.stderr)
        for part in said.parts:
            progress.detail(f"{part}: nothing changed, output reused")
        return said, time.perf_counter() - start
    up_to_date.forget(options.out, root, language)  # a build that fails now must not leave the old record standing
    kit, problems = load_quietly(args, root, inputs=inputs)
    report_problems(problems)
    from pnpgen.build import build
    result = build(kit, options, progress, inputs)
    said = up_to_date.Said(kit.title, str(result.kit_out), result.parts, [str(f) for f in result.files],
                           [str(p) for p in problems], result.warnings)
    if result.kit_out == inputs.kit_out:  # else the inputs were hashed with the wrong folder left out
        up_to_date.remember(options.out, root, key_options, inputs, said, language)
    return said, result.seconds


def _build_once(args, root: Path, options, progress: Progress, built: list) -> str:
    """One build of `build --watch`, by the road a fresh `pnpgen build` takes (_build_or_reuse): the inputs
    hashed once for the load and every part's key, the texts' checks skipped where these files were found
    clean before, and the up-to-date record kept, so the next `pnpgen build` after the watch reuses what it
    built. `built` is set to the parts built (or reused)."""
    from pnpgen import budgets
    with budgets.enforced():
        said, _ = _build_or_reuse(args, root, options, progress)
    built[:] = said.parts
    return f"{', '.join(said.parts) or 'manifest'} ({len(said.files)} files)"


def _serve(args) -> int:
    from pnpgen.studio.session import serve
    if not 0 <= args.port <= 65535:
        raise ValueError(f"--port must be between 0 and 65535, not {args.port}")
    root = find_kit(args.kit, args.data)
    return serve(root, build_options(args), lambda **how: load_quietly(args, root, **how), args.port, args.open)


def _proof(args) -> int:
    from pnpgen.proof import make_proofs
    kit = load(args)
    result = make_proofs(kit, args.only, Path(args.out), colour=args.colour, dpi=args.dpi,
                         counter_size=args.counter_size)
    print(f"Proofed {len(result.proofs)} piece(s) of {kit.title} in {result.seconds:.2f} s:")
    for path in result.files:
        print(f"  {path}")
    return EXIT_OK


def _translate(args) -> int:
    """The template and the language's PO file brought up to date with the kit's printed words."""
    from pnpgen.i18n.editions import read_kit_doc, language_name
    from pnpgen.i18n.merge import summary, translate
    root = find_kit(args.kit, args.data)
    kit_doc = read_kit_doc(root, args.lang)
    print(summary(translate(root, kit_doc, args.lang), language_name(args.lang)))
    return EXIT_OK


def _new(args) -> int:
    from pnpgen.kit import load_kit
    from pnpgen.newkit import BLANK_KIT, new_kit
    source = BLANK_KIT if args.blank else find_kit(args.source)
    load_kit(source)  # copy only a kit that is valid
    target = new_kit(source, Path(args.folder), with_templates=not (args.no_templates or args.blank))
    print(f"New kit in {target}. Edit its YAML and templates, then build it with:\n"
          f"  pnpgen build --data {target}")
    return EXIT_OK
