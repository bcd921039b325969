"""`python -m boardlab` runs the command-line interface."""

from boardlab.cli.main import entry

raise SystemExit(entry())
