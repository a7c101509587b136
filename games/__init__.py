"""Game modules: each subpackage holds one game's own Python (see generator/game_modules.py).

The core (`generator/`) never imports these by name; a kit.yaml's `module:` chooses one.
"""
