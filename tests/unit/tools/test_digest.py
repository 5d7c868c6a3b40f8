"""An operation's fingerprint (WriteTool.digest): arguments a later version added leave it as it
was while they hold their default, so a preview proposed before an upgrade is confirmed after it."""

from __future__ import annotations

from domain.operations.log import fingerprint
from domain.tools.base import WriteTool
from domain.tools.budget import RecordSpendArgs
from domain.tools.statements import ImportStatementArgs

LINE = {"date": "2026-06-01", "amount": "120.50", "description": "Mercado Extra", "expense": "Mercado",
        "fingerprint": "f1"}


def test_an_import_without_the_later_arguments_keeps_the_fingerprint_it_had_before_them() -> None:
    args = ImportStatementArgs.model_validate({"operationId": "op-1", "file": "nubank.csv", "lines": [LINE]})

    before = fingerprint(args.model_dump(exclude={"operation_id", "confirm", "card", "counted"}))
    assert WriteTool.digest(args) == before


def test_an_import_with_counted_parcelas_is_another_operation() -> None:
    plain = ImportStatementArgs.model_validate({"operationId": "op-1", "file": "nubank.csv", "lines": [LINE]})
    counted = ImportStatementArgs.model_validate({"operationId": "op-1", "file": "nubank.csv", "lines": [LINE],
                                                  "counted": [{"date": "2026-03-01", "amount": "-45",
                                                               "description": "Farmacia - Parcela 4/10"}]})

    assert WriteTool.digest(plain) != WriteTool.digest(counted)


def test_a_spend_without_a_card_keeps_the_fingerprint_it_had_before_cards() -> None:
    args = RecordSpendArgs.model_validate({"operationId": "op-2", "expense": "Mercado", "period": "2026-06",
                                           "amount": {"amount": "37.90", "currency": "BRL"}})

    before = fingerprint(args.model_dump(exclude={"operation_id", "confirm", "card", "installments", "date"}))
    assert WriteTool.digest(args) == before
