"""Shrinking a recorded face before it is stored: drop the cairo calls that cannot change what is drawn.

cairosvg is thorough rather than lean: every element gets an invisible stroke, text is first traced as a
path only that stroke uses, and unchanged state is set again and again. Replaying a face costs one C call
per recorded call, so these are removed here. Each rule keeps the drawing identical; the tests compare a
build from replayed faces with a fresh one byte for byte.
"""
from __future__ import annotations

# Calls that only build the current path or move the current point (undone transforms included).
PATH_ONLY = frozenset("""move_to rel_move_to line_to rel_line_to curve_to rel_curve_to close_path new_sub_path
    rectangle arc arc_negative text_path rotate translate scale""".split())
CONSUMES = frozenset(("fill", "stroke", "clip"))                       # use the path, then clear it
CONSUMES_PRESERVE = frozenset(("fill_preserve", "stroke_preserve", "clip_preserve"))
NEEDS_POINT = frozenset("""rel_move_to rel_line_to rel_curve_to line_to curve_to close_path show_text text_path
    arc arc_negative""".split())
STATE = {"set_miter_limit": "miter", "set_antialias": "antialias", "set_font_options": "font_options",
         "set_line_width": "line_width", "set_font_size": "font_size", "select_font_face": "font_face",
         "set_source_rgba": "source", "set_source_rgb": "source"}


def compact(ops: list) -> list:
    return drop_repeated_state(drop_dead_paths(drop_invisible_paint(ops)))


def drop_invisible_paint(ops: list) -> list:
    """A stroke or fill in a fully transparent colour draws nothing: the stroke becomes a plain new_path
    (it would have cleared the path), the preserved fill goes."""
    out: list = []
    for op in ops:
        out.append(op)
        if op[0] != "restore":
            continue
        tail = [o[0] for o in out[-5:]]
        if tail == ["save", "set_line_width", "set_source_rgba", "stroke", "restore"] and out[-3][4] == 0:
            del out[-5:]
            out.append(["new_path"])
        elif tail[-4:] == ["save", "set_source_rgba", "fill_preserve", "restore"] and out[-3][4] == 0:
            del out[-4:]
    return out


def drop_dead_paths(ops: list) -> list:
    """A save ... restore block that only builds path is dead when that path is thrown away unused and the
    current point it leaves is set anew before anything needs it. Read backwards, tracking both facts."""
    keep = [True] * len(ops)
    discarded, point_fresh = True, True
    index = len(ops) - 1
    while index >= 0:
        start = path_block_start(ops, index)
        if start is not None and discarded and point_fresh:
            keep[start:index + 1] = [False] * (index + 1 - start)
            index = start - 1
            continue
        name = ops[index][0]
        if name == "new_path":
            discarded, point_fresh = True, True
        elif name in CONSUMES:
            discarded, point_fresh = False, True
        elif name in CONSUMES_PRESERVE:
            discarded = False
        elif name == "move_to":
            point_fresh = True
        elif name in NEEDS_POINT:
            point_fresh = False
        index -= 1
    return [op for op, kept in zip(ops, keep) if kept]


def path_block_start(ops: list, end: int) -> int | None:
    """If ops[end] closes a save ... restore block holding only path calls, the index of its save."""
    if ops[end][0] != "restore":
        return None
    index = end - 1
    while index >= 0 and ops[index][0] in PATH_ONLY:
        index -= 1
    return index if index >= 0 and ops[index][0] == "save" else None


def drop_repeated_state(ops: list) -> list:
    """Setting a graphics state value it already has changes nothing; save/restore and groups are followed."""
    out, state, stack = [], {}, []
    for op in ops:
        name = op[0]
        if name in ("save", "push_group"):
            stack.append(dict(state))
        elif name in ("restore", "pop_group_to_source") and stack:
            state = stack.pop()
            if name == "pop_group_to_source":
                state.pop("source", None)
        elif name in STATE:
            key = STATE[name]
            if state.get(key) == op[1:]:
                continue
            state[key] = op[1:]
        elif name.startswith("set_source"):  # a pattern or surface source: the colour is no longer known
            state.pop("source", None)
        out.append(op)
    return out
