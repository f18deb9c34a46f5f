"""Front ends: the game service every front end calls, the terminal, the `pbem` command line."""
