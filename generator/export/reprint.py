"""Incremental reprint: `pnpgen diff OLD_MANIFEST [KIT] [--write]`.

A manifest lists every piece with its front and back (template + parameters) and its count. Comparing an old
manifest with the kit as it is now names the pieces whose faces changed, the new ones, the ones gone and the
ones whose count changed; with `--write`, the print groups (sheets) that hold a changed or new piece are
built again, whole, into output/<kit>/reprint/, so a designer reprints the errata, not the kit. The kit is
read at the sizes the printed build was given (its manifest's `given` --counter-size and --piece-size), so the pieces
compare and reprint as they were printed.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

FOLDER = "reprint"
REPORT = "reprint.json"


@dataclass
class PieceDiff:
    changed: list = field(default_factory=list)   # (key, what) with what: front, back, front+back
    added: list = field(default_factory=list)     # key
    removed: list = field(default_factory=list)   # key
    count: list = field(default_factory=list)     # (key, old count, new count)

    def reprint_keys(self) -> set:
        """The pieces to print again: changed faces, new pieces, and pieces of which there are more now."""
        return {k for k, _ in self.changed} | set(self.added) | {k for k, old, new in self.count if new > old}

    def empty(self) -> bool:
        return not (self.changed or self.added or self.removed or self.count)


def _key(entry: dict) -> tuple:
    return (entry["ref"], entry["colour"])


def _faces(entries: list[dict]) -> dict:
    """key -> (sorted front faces, sorted back faces, total count) of the manifest's piece entries."""
    out: dict = {}
    for e in entries:
        fronts, backs, count = out.get(_key(e), ([], [], 0))
        fronts.append(json.dumps(e["front"], sort_keys=True))
        backs.append(json.dumps(e["back"], sort_keys=True))
        out[_key(e)] = (fronts, backs, count + e["count"])
    return {k: (sorted(f), sorted(b), c) for k, (f, b, c) in out.items()}


def _normalise(entries: list[dict]) -> list[dict]:
    """Face parameters as the manifest stores them (parsed JSON), whichever form they came in."""
    out = []
    for e in entries:
        e = dict(e)
        for side in ("front", "back"):
            face = e.get(side)
            if face and isinstance(face.get("params"), str):
                e[side] = {"template": face["template"], "params": json.loads(face["params"])}
        out.append(e)
    return out


def diff_entries(old: list[dict], new: list[dict]) -> PieceDiff:
    before, after = _faces(_normalise(old)), _faces(_normalise(new))
    result = PieceDiff()
    for key, (fronts, backs, count) in after.items():
        if key not in before:
            result.added.append(key)
            continue
        old_fronts, old_backs, old_count = before[key]
        what = [side for side, a, b in (("front", fronts, old_fronts), ("back", backs, old_backs)) if a != b]
        if what:
            result.changed.append((key, "+".join(what)))
        elif count != old_count:
            result.count.append((key, old_count, count))
    result.removed = [key for key in before if key not in after]
    return result


def current_entries(kit) -> tuple[list, list[dict]]:
    from pnpgen.manifest import piece_entries  # here: every command line adds `diff`, a build up to date too
    pieces = list(kit.component_pieces)
    return pieces, json.loads(json.dumps(piece_entries(pieces)))


def read_manifest(path: Path) -> dict:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror}") from None
    except ValueError as exc:
        raise ValueError(f"{path}: not a pnpgen manifest (not JSON: {exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get("pieces"), list):
        raise ValueError(f"{path}: not a pnpgen manifest (no 'pieces' list)")
    return data


def report_lines(diff: PieceDiff, counts: dict) -> list[str]:
    def name(key):
        ref, colour = key
        return f"{ref} ({colour})" if colour != "neutral" else ref
    lines = [f"changed  {name(k)}: {what} ({counts.get(k, 0)} piece(s))" for k, what in diff.changed]
    lines += [f"added    {name(k)} ({counts.get(k, 0)} piece(s))" for k in diff.added]
    lines += [f"count    {name(k)}: {old} -> {new}" for k, old, new in diff.count]
    lines += [f"removed  {name(k)}" for k in diff.removed]
    return lines


def write_reprint(kit, pieces: list, keys: set, out: Path, paper: str | None = None,
                  replayed: dict | None = None) -> list[str]:
    """Build the print groups holding `keys` into OUT/<kit>/reprint/; the files written. `replayed`: the
    options the printed build was given (replayed_options), so the sheets match it."""
    from pnpgen.build import BuildContext
    from pnpgen.export.decks import ExportArts
    from pnpgen.output import BuildLock, OutputStage
    from pnpgen.owned_folders import check_replaceable
    from pnpgen.components.files import printed_files, write_group
    from pnpgen.pdf_update import mark_print_scaling
    wanted = [p for p in pieces if (p.ref, p.colour) in keys]
    groups = {p.group for p in wanted}
    target = Path(out) / kit.id / FOLDER
    written = []
    check_replaceable(Path(out) / kit.id, kit.id)  # it lands inside the kit's build: a folder pnpgen made
    with BuildLock(Path(out) / kit.id), OutputStage(target, kit.id, REPORT) as stage:  # never beside a build
        ctx = BuildContext(kit, pieces, reprint_options(out, paper, replayed or {}), stage, lambda _: None)
        arts = ExportArts(kit)
        files = [write_group(ctx, group, runs, arts) for group, runs in printed_files(ctx)[0].items()
                 if any(p.group in groups for _, pieces in runs for p in pieces)]  # shared remainders too
        mark_print_scaling(stage.dir / rel for rel in stage.written)
        stage.write_json(REPORT, {"kit": kit.id, "groups": sorted(groups),
                                  "pieces": sorted(f"{r}:{c}" for r, c in keys),
                                  "files": [{"path": f["path"], "pages": f["pages"]} for f in files]})
        written = list(stage.written)
    for old in target.glob("*.pdf"):       # a reprint folder holds this reprint only
        if old.name not in written:
            old.unlink()
    return [str(target / rel) for rel in written]


BUILD_ONLY = ("for", "bleed")   # options of other outputs, not of the sheets
# Defaults an option had before manifests recorded what was given (`given`): such a manifest holds every
# option at its value used, so one at a default it has or had is taken as not given (--gutter was 0.0 for
# "the group's own" until None took that meaning).
FORMER_DEFAULTS = {"gutter": (0.0,)}


def replayed_options(manifest: dict, kit) -> dict:
    """The printed build's options a reprint replays: exactly those its user gave (the manifest's `given`),
    so a default, the kit's own counter size or paper among them, is today's. A manifest from before `given`
    was recorded: its options less those at a default (FORMER_DEFAULTS, the parts' own) and a paper or
    counter size equal to the kit's."""
    given = manifest.get("given")
    if isinstance(given, dict):
        return dict(given)
    printed = manifest.get("options") if isinstance(manifest.get("options"), dict) else {}
    defaults = option_defaults()
    return {name: value for name, value in printed.items()
            if value is not None and value != defaults.get(name, None) and value not in FORMER_DEFAULTS.get(name, ())
            and not (name in ("paper", "counter_size") and value == getattr(kit, name))}


def option_defaults() -> dict:
    """{option name: its default} of every part's command-line option."""
    from pnpgen.parts import all_parts
    defaults = {}
    for part in all_parts():
        for option in part.options:
            name = option.kwargs.get("dest") or option.flags[0].lstrip("-").replace("-", "_")
            defaults[name] = option.kwargs.get("default", False if option.kwargs.get("action") == "store_true" else None)
    return defaults


def reprint_options(out: Path, paper: str | None, replayed: dict):
    """Build options for the reprint: the options the printed build was given (paper, counter size, duplex,
    back offset, gutter...), with --paper winning; the rest at their defaults, as a build without them."""
    from pnpgen.build_options import BuildOptions
    extra = {k: v for k, v in replayed.items() if k not in ("paper", "counter_size", *BUILD_ONLY)}
    return BuildOptions(out=Path(out), paper=paper or replayed.get("paper"), counter_size=replayed.get("counter_size"),
                        extra=extra)


def add_command(commands, kit_arguments) -> None:
    cmd = commands.add_parser("diff", help="list the pieces changed since an earlier build; --write reprints them")
    cmd.add_argument("old_manifest", metavar="OLD_MANIFEST", help="the manifest.json of the earlier build (a copy)")
    kit_arguments(cmd)
    cmd.add_argument("--write", action="store_true",
                     help="build the sheets (print groups) that hold a changed piece into OUT/<kit>/reprint/")
    cmd.add_argument("--out", default="output", help="output folder (default: output)")
    cmd.add_argument("--paper", choices=("letter", "a4"), help="paper size (default: the kit's)")
    cmd.set_defaults(run=run)


def printed_sizes(args, replayed: dict) -> dict:
    """The sizes the printed build was given that this command line does not give: its --counter-size and
    its --piece-size."""
    counter_size, piece_size = replayed.get("counter_size"), replayed.get("piece_size")
    chosen = {}
    if isinstance(counter_size, str):
        chosen["counter_size"] = counter_size
    if not args.piece_size and isinstance(piece_size, list) and all(isinstance(s, str) for s in piece_size):
        chosen["piece_size"] = piece_size
    return {k: v for k, v in chosen.items() if v}


def load_as_printed(args, manifest: dict):
    """(The kit, with its tables at the sizes the printed build was given, else a reprint compares and prints
    every resized piece at its table's own size; the options to replay)."""
    from argparse import Namespace
    from pnpgen.cli_common import load, load_quietly, report_problems
    kit, warnings = load_quietly(args)
    replayed = replayed_options(manifest, kit)
    sizes = printed_sizes(args, replayed)
    if sizes:
        return load(Namespace(**(vars(args) | sizes))), replayed
    report_problems(warnings)
    return kit, replayed


def run(args) -> int:
    old = read_manifest(Path(args.old_manifest))
    kit, replayed = load_as_printed(args, old)
    if old.get("kit") not in (None, kit.id):
        raise ValueError(f"{args.old_manifest} is the manifest of kit {old.get('kit')!r}, not {kit.id!r}")
    pieces, entries = current_entries(kit)
    diff = diff_entries(old["pieces"], entries)
    counts: dict = {}
    for p in pieces:
        counts[(p.ref, p.colour)] = counts.get((p.ref, p.colour), 0) + 1
    if diff.empty():
        print(f"{kit.title}: nothing changed since {args.old_manifest}.")
        return 0
    keys = diff.reprint_keys()
    print(f"{kit.title}: {len(diff.changed) + len(diff.added) + len(diff.count) + len(diff.removed)} "
          f"change(s) since {args.old_manifest}; {sum(counts.get(k, 0) for k in keys)} piece(s) to reprint:")
    for line in report_lines(diff, counts):
        print(f"  {line}")
    if args.write:
        files = write_reprint(kit, pieces, keys, Path(args.out), args.paper, replayed)
        print(f"Reprint: {len(files)} file(s):")
        for f in files:
            print(f"  {f}")
    return 0
