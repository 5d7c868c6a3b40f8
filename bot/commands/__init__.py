"""The commands people type: the catalog (plain data) and the readers of their arguments."""
