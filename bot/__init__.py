"""The bot: the use cases (app/), and the adapters that bring people to them (telegram/, console/).

Layers, top to bottom: __main__ → telegram/, console/ → bootstrap → app/ → texts/ → commands/.
Nothing imports upwards; app/, texts/ and commands/ never import telegram (import-linter checks).
"""
