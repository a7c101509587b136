"""Cache and record files written whole: into a temporary beside the target, then renamed over it.

A reader sees the old file or the new one, never half of one; and a write that fails (a full disk, a
read-only folder, the file-size limit) leaves no temporary behind: it is removed before the error goes on.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path


def write_whole(path: Path, data: bytes | str, copy_of: Path | None = None) -> None:
    """`data` (or, with `copy_of`, that file's bytes) at `path`, whole or not at all."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        if copy_of is not None:
            shutil.copyfile(copy_of, temporary)
        elif isinstance(data, str):
            temporary.write_text(data, encoding="utf-8")
        else:
            temporary.write_bytes(data)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
