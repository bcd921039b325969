"""The `boardlab` command: one module per subcommand."""
