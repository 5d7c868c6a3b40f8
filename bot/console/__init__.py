"""The console adapter: `household-bot console`, the same chat in a terminal."""
