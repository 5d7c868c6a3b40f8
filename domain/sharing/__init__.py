"""Who paid, and who owes whom: the split rule and each spend's shares (rules.py), the running
balance and the transfers that settle it (balance.py), and the Pix key and BR Code an acerto is
paid with (pix.py). Pure: the standard library and the domain only."""
