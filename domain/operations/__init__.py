"""Propose → confirm: the operation log, the typed previews, the receipts and the confirmer.

Every write, whoever asks for it (the model, a command, a button, a statement file), is an
operation here first: proposed with a preview, then written exactly once when a member confirms.
"""
