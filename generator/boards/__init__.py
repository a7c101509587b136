"""Boards from data: a size, a template, places joined by links, tracks and texts; poster and tiles."""
