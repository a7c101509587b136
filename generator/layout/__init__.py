"""Layout: pure numbers (positions in points) for what the render stage draws; nothing here draws."""
