"""One module per subcommand; each has `register(subparsers)` that sets `func`."""
