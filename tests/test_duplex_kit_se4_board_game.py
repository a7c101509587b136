"""The virtual duplex printer on se4-board-game: its own file so xdist runs it beside the other kits' (tests/duplex_builds.py)."""
from tests.duplex_builds import (kit_checks, test_every_back_lands_on_its_front,  # noqa: F401
                                  test_every_shipped_kit_prints_with_bleed_wherever_its_art_meets_a_cut,
                                  test_every_two_sided_file_says_the_builds_one_flip_and_the_kit_has_a_calibration_sheet)

printed = kit_checks(["se4-board-game"])
