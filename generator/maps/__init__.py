"""Hex-map boards: layout files (layout), hex maths (geometry), board composition (board), page tiling
(tiling) and the SVG drawing (draw). Layout, geometry, board and tiling are pure numbers; only draw draws."""
