"""The components part cut into shards (pnpgen.parts.Split): its print files drawn in workers side by side,
so that a kit whose pieces are most of its build keeps both cores busy to its end (Eclipse's player pieces
alone took as long as its boards and documents together).

Each file is a member; the files that share a sheet (kit.yaml `remainders:`) are one bundle, drawn by one shard.
A shard draws its files as the whole part would (pnpgen.components.files.write_group: the same bytes, from
the same faces and layout) and sends back, beside each file's entry, what the part keeps in the caches: the
faces and drawing keys it used, the memos' entries, the drawn files it kept. The parent joins them into the
part's one entry and writes each cache once, so two shards never write one file. A shard whose faces had
something to say (a font, an image's resolution, a preflight finding) makes the part build whole: which row
such a message names depends on which faces a process saw first, and the whole part says it as it always did.
"""
from __future__ import annotations

from collections import OrderedDict

from pnpgen.components.entry import part_entry
from pnpgen.components.remainders import SHARES
from pnpgen.parts import Split


def split(ctx) -> Split | None:
    """The part's files as shard members, those sharing a sheet one bundle; None where there is one bundle, or
    a `remainders:` names no print file (the whole part says so, naming every file). Run in the parent
    before any worker starts: it reads the pieces' groups only (pnpgen.components.files, with the drawing
    code and jinja behind it, 0.1 s to import, is imported by the shards)."""
    groups = group_tables(ctx.kit)
    into = {}
    for group, (table, _) in groups.items():
        target = (ctx.kit.sheets.get(table.group) or {}).get(SHARES)
        if target and target != group:
            if target not in groups:
                return None
            into[group] = target
    head = {group: group for group in groups}

    def first(group):
        while head[group] != group:
            group = head[group]
        return group
    for group, target in into.items():
        head[first(group)] = first(target)
    bundles = OrderedDict()
    for group in groups:
        bundles.setdefault(first(group), []).append(group)
    if len(bundles) < 2:
        return None
    return Split(bundles=tuple(tuple(bundle) for bundle in bundles.values()), order=tuple(groups),
                 weights={group: count for group, (_, count) in groups.items()}, run=draw_shard, join=join_shards)


def group_tables(kit) -> "OrderedDict[str, tuple]":
    """{print group: (the table of its first piece, its pieces)} in print order, as files.batches groups them."""
    groups = OrderedDict()
    for piece in kit.component_pieces:
        table, count = groups.get(piece.group, (kit.tables[piece.ref.split(".", 1)[0]], 0))
        groups[piece.group] = (table, count + 1)
    return groups


def draw_shard(ctx, members: list):
    """In a shard's worker: yields once set up, then (file, its entry) for each of its files in print order;
    returns what the caches keep (kept_by)."""
    from pnpgen.components.files import collector_paused, printed_files, start_drawing, write_group
    from pnpgen.components.sheet_facts import SheetFacts
    from pnpgen.render.home_bleed import forget
    try:
        with collector_paused():
            arts, cache, bare_memo = start_drawing(ctx)
            stored = set(arts.store.records)
            yield None
            facts = SheetFacts(ctx.kit.root)
            printed, moved = printed_files(ctx, set(members), facts)
            for group, runs in printed.items():
                yield group, write_group(ctx, group, runs, arts, cache, bare_memo)
            return kept_by(arts, cache, bare_memo, stored, moved) | {"facts": (facts.used, facts.dirty)}
    finally:
        forget()


def kept_by(arts, cache, bare_memo, stored: set, moved: dict) -> dict:
    """What a shard sends back for the parent to keep: nothing but `said` when its faces said something."""
    if arts.warnings or arts.findings or arts.size_findings:
        return {"said": True}
    bleed = arts.bleed_memo
    return {"said": False, "moved": moved, "used": set(arts.used), "stored": stored,
            "records": {key: record for key, record in arts.store.records.items() if key not in stored},
            "keys": (arts.known_keys.used, arts.known_keys.dirty),
            "overprints": (arts.overprints_of.used, arts.overprints_of.dirty),
            "bare": (bare_memo.used, bare_memo.dirty),
            "bleed": (list(bleed.used), bleed.dirty,
                      {key: bytes(value) for key, value in bleed.used.items()} if bleed.dirty else {}),
            "sheets": set(cache.used)}


def join_shards(ctx, built: list, kept: list) -> dict | None:
    """In the parent: the part's entry from its files' [(file, entry)] in print order and the shards' kept
    (None: a shard's faces said something, build it whole); each cache written once."""
    if any(shard["said"] for shard in kept):
        return None
    moved = {}
    for shard in kept:
        moved.update(shard["moved"])
    used = set().union(*(shard["used"] for shard in kept))
    stored = set().union(*(shard["stored"] for shard in kept))
    keep_caches(ctx, kept, used, stored)
    return part_entry(ctx, [entry for _, entry in built], moved, [], len(used), len(used - stored))


def keep_caches(ctx, kept: list, used: set, stored: set) -> None:
    """What the whole part writes at its end, written once for all shards: the drawn files not used pruned,
    the faces' drawings and keys, the overprint, bare-edge and bleed memos, each only where a shard changed
    it (a build into a new folder with the user's cache warm writes none)."""
    from pnpgen.components.sheet_facts import SheetFacts
    from pnpgen.output_cache import OutputCache
    from pnpgen.render.check_memo import CheckMemo
    from pnpgen.render.face_keys import FaceKeys, kit_cache_files, render_salt
    kit = ctx.kit
    cache = OutputCache(ctx.cache_dir / "piece-sheets")
    cache.used = set().union(*(shard["sheets"] for shard in kept))
    cache.prune()
    _keep_memo(CheckMemo("faces", kit.root), [shard["overprints"] for shard in kept])
    _keep_memo(CheckMemo("piece-sheets-bare", kit.root), [shard["bare"] for shard in kept])
    _keep_memo(SheetFacts(kit.root), [shard["facts"] for shard in kept])
    _keep_bleed(kit, [shard["bleed"] for shard in kept])
    store_file, keys_file = kit_cache_files(kit.root, ctx.cache_dir)
    records = {key: record for shard in kept for key, record in shard["records"].items()}
    if records or stored - used:
        _keep_faces(store_file, records, used)
    if any(dirty for _, dirty in (shard["keys"] for shard in kept)):
        _keep_memo(FaceKeys(keys_file, render_salt(ctx)), [shard["keys"] for shard in kept])


def _keep_memo(memo, shards: list) -> None:
    """A sealed memo (pnpgen.render.check_memo) written with every shard's entries, when one changed it."""
    if not any(dirty for _, dirty in shards):
        return
    for used, _ in shards:
        memo.used.update(used)
    memo.dirty = True
    memo.save()


def _keep_bleed(kit, shards: list) -> None:
    """The bleed memo: the entries of a shard that changed it come back whole, the others' from the file."""
    from pnpgen.render.bleed_memo import BleedMemo
    if not any(dirty for _, dirty, _ in shards):
        return
    memo = BleedMemo(kit.root)
    for keys, dirty, entries in shards:
        memo.used.update(entries if dirty else {key: memo.known[key] for key in keys if key in memo.known})
    memo.dirty = True
    memo.save()


def _keep_faces(store_file, records: dict, used: set) -> None:
    """The faces' drawings: the new ones added, the ones no file used any more dropped."""
    from pnpgen.render.face_store import PackedFaceStore
    store = PackedFaceStore(store_file)
    for key, record in records.items():
        if store.get(key) is None:
            store.put(key, record)
    try:
        store.save(used)
    except OSError:   # the user's cache full or read-only: the next build draws these faces again, no more
        pass
