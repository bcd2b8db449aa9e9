"""The Python package's version (the Go binary's is readsim.version())."""

__version__ = "0.1.0"
