"""Who owes whom, as people read it: /saldo, /divisao, and the acerto's Pix copia e cola and QR code."""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Final

from bot.texts.format import money, month_br
from bot.texts.previews import rule_text
from domain.household import Household
from domain.money import Period
from domain.sharing.balance import Balance
from domain.sharing.pix import br_code
from domain.tools.sharing import RuleView, SettlementPreview

QUITES: Final = "Vocês estão quites."
QR_SCALE: Final = 8  # pixels per module: a ~45-module code becomes a ~400 px picture


def balance_text(balance: Balance, period: Period | None) -> str:
    """/saldo: `<devedor> deve R$ X a <credor>` per transfer, fewest first, or `Vocês estão quites.`;
    then what it covers."""
    title = f"💸 Movimento de {month_br(period)}" if period is not None else "💸 Quem deve a quem"
    transfers = balance.transfers()
    lines = [title, ""]
    lines += [f"{t.debtor} deve {money(t.amount)} a {t.creditor}" for t in transfers] or [QUITES]
    lines += ["", f"Conta {_count(balance.spends, 'gasto dividido', 'gastos divididos')} e "
                  f"{_count(balance.settlements, 'acerto', 'acertos')}"
                  + (" do mês." if period is not None else ".")]
    if transfers:
        lines.append("Para registrar um pagamento: /acerto [valor].")
    return "\n".join(lines)


def _count(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def split_text(rule: RuleView) -> str:
    """/divisao without arguments: the rule in force and how to change it."""
    return "\n".join([
        f"➗ Divisão dos gastos da casa: {rule_text(rule)}",
        "",
        "Para mudar (vale para os gastos confirmados depois):",
        "• /divisao igual",
        "• /divisao Ana 60 Bruno 40",
        "• /divisao renda (cada um informa a sua com /renda <valor>)",
        "Um gasto só de um: /gasto 50 farmácia pessoal.",
    ])


@dataclass(frozen=True)
class PixPayment:
    """The copia e cola of an acerto, the lines its messages show and the caption of its QR code."""

    payload: str
    lines: tuple[str, ...]
    caption: str


def pix_payment(preview: SettlementPreview, household: Household, reference: str) -> PixPayment | None:
    """The BR Code paying the acerto to its creditor, when they have a Pix key (and it is in reais)."""
    creditor = next((m for m in household.members if m.name == preview.creditor), None)
    if creditor is None or not creditor.pix_key or preview.amount.currency != "BRL":
        return None
    payload = br_code(creditor.pix_key, name=creditor.name, amount=preview.amount, txid=f"acerto{reference}")
    heading = f"Pix copia e cola para {creditor.name} ({money(preview.amount)}):"
    return PixPayment(payload, ("", heading, payload), f"{heading}\n{payload}")


def qr_png(payload: str) -> bytes:
    """The payload as a QR code picture (PNG), drawn by segno (imported on the first acerto)."""
    import segno

    out = io.BytesIO()
    segno.make(payload, error="m", micro=False).save(out, kind="png", scale=QR_SCALE, border=4)
    return out.getvalue()
