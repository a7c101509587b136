"""Hex maps and boards bigger than a page: the hex-map format (hexmap, with a kit's meaning of it in rules),
hex maths (geometry), a map's composed board (board, numbers only) and its drawing (draw), splitting any board
across printer pages (tiling, numbers only), drawing those pages (pages) and the maps part's files (files).
The boards of places (generator/boards) tile the same way."""
