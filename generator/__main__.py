"""Lets `python -m generator` run the same CLI as the `pnpgen` script."""
import sys

from generator.cli import main

sys.exit(main())
