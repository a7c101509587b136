"""Lets `python -m pnpgen` run the same CLI as the `pnpgen` script."""
import sys

from pnpgen.cli import main

sys.exit(main())
