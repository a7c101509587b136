"""Boards bigger than a page: hex maths (geometry), splitting a board across printer pages (tiling, numbers
only) and drawing those pages (pages). A game's own boards (games/) use them like the boards of places."""
