"""A rebuild with nothing changed does no work: the output is already what the build would write.

After a build lands, a record keeps the key of everything it read (every input file's digest, the options,
the working directory that located messages are relative to, the Python and its libraries) and the size, mtime and inode of each file it
wrote, with what it printed (the kit's warnings, the parts, the files). The next build with the same key
whose files are all still there, untouched, loads no kit, validates nothing and draws nothing: it says
again what the last one said. Anything else (an edit, other options, an output file deleted or changed, no
record) is an ordinary build, whose parts still come from the part cache when their inputs did not change.
Validation and drawing are deterministic functions of those inputs, so the reused answer is the answer.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from pnpgen.inputs import DigestMemo, Inputs
from pnpgen.signing import may_replace, read_sealed, seal
from pnpgen.whole_files import write_whole

KIT_ID = re.compile(r"(?m)^kit:[ \t]*[\"']?([a-z0-9][a-z0-9-]{0,63})[\"']?[ \t]*(?:#.*)?$")  # as kit.yaml's schema:
# an id like '..' is no folder name to build into (the load then says what is wrong with it)

RECORD_VERSION = 1
DIGESTS_FOLDER = "input-digests"
SHARED_DIGESTS = "pnpgen.json"   # a kit folder's memo is named by a hash: no clash


def cache_root(out: Path) -> Path:
    return Path(out) / ".cache"


def digest_memo(kit_root: Path) -> DigestMemo:
    """The input files' digest memo of the kit folder `kit_root`, in the user's cache: every output folder the
    kit is built into reads it, a new one too. Its files' digests are kept per kit folder, pnpgen's own (code,
    fonts, templates) in one memo every kit shares."""
    from pnpgen.resources import cache_folder
    folder = cache_folder(DIGESTS_FOLDER)
    if folder is None:
        return DigestMemo(None)
    name = hashlib.sha256(str(Path(kit_root).resolve()).encode()).hexdigest()[:24]
    return DigestMemo(folder / f"{name}.json", folder / SHARED_DIGESTS,
                      str(Path(kit_root)).rstrip(os.sep) + os.sep)


def _record_path(out: Path, kit_root: Path, language: str | None = None) -> Path:
    """One record per kit folder and edition (a translated edition is its own build: pnpgen.i18n.editions)."""
    name = hashlib.sha256((str(Path(kit_root).resolve()) + (f"\0{language}" if language else "")).encode()).hexdigest()[:24]
    return cache_root(out) / "last-build" / f"{name}.json"


def build_key(inputs: Inputs, options: dict) -> str:
    text = json.dumps({"inputs": inputs.fingerprint(), "options": options, "cwd": os.getcwd(),
                       "python": _interpreter(), "version": RECORD_VERSION}, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _interpreter() -> list:
    """The Python and its installed libraries, cheaply: installing, upgrading or removing a package (cairosvg,
    reportlab) adds or removes entries in site-packages, which changes that folder's mtime."""
    stamps = [sys.version, sys.prefix]
    for folder in sys.path:
        if folder.endswith("-packages") and os.path.isdir(folder):
            stamps.append([folder, os.stat(folder).st_mtime_ns])
    return stamps


def _stamp(path: Path) -> list | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return [stat.st_size, stat.st_mtime_ns, stat.st_ino]


@dataclass
class Said:
    """What a build printed, to be said again by a build that finds it up to date."""

    title: str
    kit_out: str
    parts: list[str]
    files: list[str]
    problems: list[str]   # the kit's warnings, as printed
    warnings: list[str]   # the build's warnings


def reusable(out: Path, kit_root: Path, options: dict, inputs: Inputs, language: str | None = None) -> Said | None:
    """What the last build said, if its key equals this build's and every file it wrote is as it left it."""
    try:  # a record this user's pnpgen signed: one shipped in a kit's output/.cache is no answer
        record = json.loads(read_sealed(_record_path(out, kit_root, language)) or b"null")
        if record.get("version") != RECORD_VERSION:
            return None
        said = Said(**record["said"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    if said.kit_out != str(inputs.kit_out) or build_key(inputs, options) != record["key"]:
        return None
    if any(_stamp(Path(f)) != stamp for f, stamp in record["stamps"].items()):
        return None
    return said


def remember(out: Path, kit_root: Path, options: dict, inputs: Inputs, said: Said, language: str | None = None) -> None:
    """Record the build that just landed, under the key of the inputs as hashed before it read them (an
    edit made while it ran then changes the key of the next build, which builds again)."""
    path = _record_path(out, kit_root, language)
    key = build_key(inputs, options)
    record = {"version": RECORD_VERSION, "key": key, "stamps": {f: _stamp(Path(f)) for f in said.files},
              "said": said.__dict__}
    path.parent.mkdir(parents=True, exist_ok=True)
    if may_replace(path):
        write_whole(path, seal(json.dumps(record).encode("utf-8")))
    inputs.keep_memo()


def kit_out_guess(out: Path, kit_root: Path, language: str | None = None) -> Path:
    """Where the kit will land (OUT/<kit id>, a translated edition OUT/<kit id>.<lang>), read from kit.yaml
    without loading it; the build checks the guess against the loaded kit (it matters only to leave that
    folder out of the inputs)."""
    from pnpgen import kit_files
    try:
        match = KIT_ID.search(kit_files.read_text(Path(kit_root) / "kit.yaml", kit_root))
    except kit_files.KitFileError:  # the load says what is wrong with it, located
        match = None
    from pnpgen.i18n.editions import declared, edition_id
    kit_id = match.group(1) if match else Path(kit_root).name
    return Path(out) / edition_id(kit_id, language, declared(kit_root) if language else [])


def forget(out: Path, kit_root: Path, language: str | None = None) -> None:
    """A build that failed leaves no record: the next one builds for real."""
    path = _record_path(out, kit_root, language)
    try:
        if may_replace(path):   # never a file of that name that pnpgen did not write
            path.unlink()
    except OSError:
        pass
