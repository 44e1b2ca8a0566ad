"""What every command shares: argument types and subcommands (`arguments`), progress bars
(`progress`)."""
