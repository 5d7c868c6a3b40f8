"""The one reader of amounts, months, days and dates, as people (and the models that copy them)
write them, and still exactly.

The commands (bot/commands/parsing.py keeps only their token work), the model's tool arguments
(domain/tools), the free-text reader (domain/agent/reader.py) and the grounding of the model's
arguments in the member's words (domain/tools/grounding.py) all read through here, so "37,90",
"R$ 1.234,56", "2 mil", "1,5k", "R$1k", "50 reais", "duzentos e cinquenta", "37.90", "novembro",
"mês passado", "ontem", "05/2026" or "15/06/2026" mean the same wherever they are written. Each
reader returns the exact value or raises a `DomainError` whose message is a pt-BR sentence naming
what was written: a person reads it in the chat, the model reads it back as a tool result. Never
a float: a JSON number arrives as the Decimal of its literal and stays exact.

- `amounts`: amounts and currencies (`read_amount`, `read_currency`, `currency_of`);
- `calendar`: months, days and dates, and the words of a day (`read_period`, `read_date`,
  `read_day`, `day_named`);
- `spelled`: numbers written in words ("mil e duzentos");
- `message`: what a whole message says: every amount, day, month and currency in it (`scan`).
"""

from domain.reading.amounts import CENTS, Amount, currency_of, is_multiplier, read_amount, read_currency
from domain.reading.calendar import day_named, read_date, read_day, read_period

__all__ = [
    "CENTS",
    "Amount",
    "currency_of",
    "day_named",
    "is_multiplier",
    "read_amount",
    "read_currency",
    "read_date",
    "read_day",
    "read_period",
]
