"""Hex maps and boards bigger than a page: the hex-map format (hexmap), a kit's declared meaning of it (rules,
read from kit.yaml `map_rules:` by declared, checked over every map by region_checks), hex maths (geometry),
a map's composed board (board, numbers only) and its drawing (draw), splitting any board across printer pages
(tiling, numbers only), drawing those pages (pages) and the maps part's files (files).
The boards of places (generator/boards) tile the same way."""
