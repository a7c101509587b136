"""What the overprint check found on each drawing, remembered in the user's cache: a drawing's findings
depend only on its recorded calls and texts, which its content key names (its SVG, the images and kit fonts
it shows, the renderer's code), and on the checking code, which the memo's salt names. A build into a new
output folder, or after a data edit, takes the findings of every drawing checked before instead of reading
its calls again; a new or changed drawing is checked as before. A memo that cannot be read or written only
costs the checks. A build in another language checks every time (a finding names the translation's line,
which can move while the drawing stays)."""
from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

KEEP = 20000   # drawings remembered per kit and part: the ones this build checked first, then the newest others
VERSION = 1


@lru_cache(maxsize=1)
def checker_salt() -> str:
    """The code that turns recorded calls into findings: a change to it forgets every memo."""
    from pnpgen import overlaps, preflight
    from pnpgen.output_cache import source_fingerprint
    from pnpgen.render import ink_lines
    import sys
    return f"{VERSION}:" + source_fingerprint(preflight, overlaps, ink_lines, sys.modules[__name__])


class SealedMemo:
    """{entry key: what was worked out} kept in one sealed file (this user's pnpgen's only) at `path` under a
    salt: read when first asked, written once at the end, only when an entry was worked out anew (`dirty`):
    this build's entries first, then the newest others up to KEEP. A memo that cannot be read or written only
    costs the work. The checks' memo below, the home bleed's (pnpgen.render.bleed_memo) and the faces' drawing
    keys (pnpgen.render.face_keys) are each one."""

    KEEP = KEEP
    FIELD = "findings"   # the entries' name in the file

    def __init__(self, path: Path | None):
        self.path = path
        self._known: dict | None = None
        self.used: dict = {}
        self.dirty = False

    @property
    def known(self) -> dict:
        """What earlier builds stored, read when first asked (a build whose files all come from the output
        cache asks nothing)."""
        if self._known is None:
            self._known = self._read()
        return self._known

    def _read(self) -> dict:
        from pnpgen.signing import read_sealed
        if self.path is None:
            return {}
        try:
            stored = read_sealed(self.path)   # this user's pnpgen's only
        except OSError:
            return {}
        return self.decode(stored) if stored else {}

    def salt(self) -> str:
        raise NotImplementedError

    def decode(self, stored: bytes) -> dict:
        """The entries of a memo as written (encode), {} when it is not one or its salt is not ours."""
        try:
            stored = json.loads(stored)
        except ValueError:
            return {}
        if not isinstance(stored, dict) or stored.get("salt") != self.salt():
            return {}
        found = stored.get(self.FIELD)
        return found if isinstance(found, dict) else {}

    def encode(self, entries: dict) -> bytes:
        return json.dumps({"salt": self.salt(), self.FIELD: entries}).encode("utf-8")

    def save(self) -> None:
        """Written when an entry was worked out anew: this build's entries first kept, then others up to KEEP."""
        keep = self.KEEP
        if not self.dirty or self.path is None:
            return
        from pnpgen.signing import seal
        from pnpgen.whole_files import write_whole
        kept = {key: found for key, found in self.known.items() if key not in self.used}
        kept = dict(list(kept.items())[-max(0, keep - len(self.used)):]) if len(self.used) < keep else {}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_whole(self.path, seal(self.encode({**kept, **self.used})))
        except OSError:
            pass


class CheckMemo(SealedMemo):
    """{drawing key: findings} of one kit's part (`name`: faces, maps...) in the user's cache. The home
    bleed's memo (pnpgen.render.bleed_memo) is one too, in its own FOLDER under its own salt."""

    FOLDER, SUFFIX = "checked-drawings", ".json"

    def __init__(self, name: str, kit_root: Path):
        from pnpgen.resources import cache_folder
        folder = cache_folder(self.FOLDER)
        where = str(Path(kit_root).resolve()) if kit_root else ""
        key = hashlib.sha256(repr((where, name)).encode("utf-8")).hexdigest()[:32]
        super().__init__(folder / f"{key}{self.SUFFIX}" if folder is not None else None)

    def salt(self) -> str:
        return checker_salt()

    def findings(self, key: str, check) -> list[str]:
        """The findings remembered for the drawing `key`, else check() (kept for the next build)."""
        from pnpgen.i18n.translator import language
        if language() is not None:   # a finding may name a .po line: checked every build
            return check()
        found = self.known.get(key)
        if not isinstance(found, list):
            found = check()
            self.dirty = True
        self.used[key] = found
        return list(found)


def drawing_key(svg: str, base: Path | None) -> str:
    """The content key of an SVG drawn whole (a map, a board, a figure): as a face's, its text, the images
    it shows (read from the kit folder `base`; none without one) and kit fonts it names, the renderer."""
    from pnpgen.render.drawing_keys import renderer_fingerprint, svg_key
    if base is not None:
        return svg_key(svg, Path(base))
    from pnpgen.kit_fonts import fonts_key
    return hashlib.sha1("\n".join((svg, fonts_key(svg), renderer_fingerprint())).encode("utf-8")).hexdigest()
