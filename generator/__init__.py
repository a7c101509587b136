"""pnpgen: print-and-play kit generator for 4X space board games."""

__version__ = "0.1.0"
