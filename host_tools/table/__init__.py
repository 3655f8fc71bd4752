"""Following a table: the event log read live or from a file, the referee screen, game-night reports."""
