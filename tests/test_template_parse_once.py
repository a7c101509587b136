"""A cold build with an empty user cache parses each kit template once: the kit load's check compiles it
where the build looks it up (pnpgen.validate_texts)."""
from __future__ import annotations

import shutil
from pathlib import Path

from pnpgen.cli import main

MINI = Path(__file__).parent / "kits" / "mini"


def _components(kit: Path, out: str) -> int:
    return main(["build", "--data", str(kit), "--out", str(kit.parent / out), "-q", "--only", "components"])


def test_a_kit_template_is_parsed_once_from_an_empty_user_cache(tmp_path, monkeypatch):
    """The kit load's template check compiles each kit template as the build's environment does, so the
    build that follows takes it from there instead of parsing the file again (a cold build with an empty
    user cache parsed every kit template twice)."""
    import jinja2
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    kit = tmp_path / "mini"
    shutil.copytree(MINI, kit)
    parsed, parse = [], jinja2.Environment._parse
    monkeypatch.setattr(jinja2.Environment, "_parse",
                        lambda self, source, name, filename: parsed.append(name) or parse(self, source, name, filename))
    assert _components(kit, "out") == 0
    own = {path.name for path in (kit / "templates").glob("*.svg.j2")}
    assert own and own <= set(parsed) and all(parsed.count(name) == 1 for name in own)
