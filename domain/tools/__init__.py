"""The tools: the only way the model, the commands and the buttons reach the domain.

Each tool is a thin use case (load through a port, one domain verb, save through the port); a
write tool runs inside the operation log's propose → confirm rules (domain/operations/).
`registry.py` lists them all and builds a household's toolbox.
"""
