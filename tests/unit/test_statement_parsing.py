"""Statement files read with no model (infra/statements.py): the samples the tests own, Itaú- and
Nubank-like, including the awkward ones, each ending in lines or in a clear pt-BR refusal."""

from __future__ import annotations

import io
import zipfile
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from PIL import Image

from domain.statements import MAX_STATEMENT_LINES, FileKind, NotAStatement, StatementError, StatementLine
from infra.statements import is_statement, parse_statement

SAMPLES = Path(__file__).parent.parent / "samples" / "statements"


def parse(name: str) -> list[StatementLine]:
    statement = parse_statement(name, (SAMPLES / name).read_bytes())
    return statement.lines


def refusal(name: str, data: bytes | None = None) -> str:
    with pytest.raises(StatementError) as refused:
        parse_statement(name, (SAMPLES / name).read_bytes() if data is None else data)
    return str(refused.value)


def test_an_itau_ofx_1x_in_latin_1_with_comma_amounts_reads_every_line_with_its_fitid() -> None:
    lines = parse("itau_june.ofx")
    assert len(lines) == 7
    assert lines[0] == StatementLine(date(2026, 6, 2), Decimal("-180.50"), "FARMÁCIA SÃO JOÃO", "202606020001")
    assert lines[1].description == "SUPERMERCADO PÃO DE AÇÚCAR"
    assert lines[4].amount == Decimal("5000.00") and not lines[4].is_debit


def test_the_declared_currency_comes_with_the_lines() -> None:
    assert parse_statement("itau_june.ofx", (SAMPLES / "itau_june.ofx").read_bytes()).currency == "BRL"
    assert parse_statement("x.ofx", (SAMPLES / "itau_usd.ofx").read_bytes()).currency == "USD"


def test_a_utf8_bom_before_a_1252_header_still_reads_the_accents() -> None:
    assert parse("itau_bom.ofx") == parse("itau_june.ofx")


def test_an_ofx_2x_xml_card_statement_reads_its_lines() -> None:
    lines = parse("card_v2.ofx")
    assert [(line.description, line.amount, line.bank_id) for line in lines] == [
        ("Drogaria São Paulo", Decimal("-77.40"), "cc-1"), ("Posto Shell", Decimal("-150.00"), "cc-2")]


def test_a_nubank_card_csv_with_a_bom_reads_purchases_as_debits_and_payments_as_credits() -> None:
    lines = parse("nubank_card.csv")
    assert lines[0] == StatementLine(date(2026, 6, 2), Decimal("-153.27"), "Supermercado Dia")
    assert lines[-1].amount == Decimal("1200.00") and not lines[-1].is_debit


def test_a_nubank_account_csv_reads_its_identifier_as_the_bank_id() -> None:
    lines = parse("nubank_account.csv")
    assert lines[1] == StatementLine(date(2026, 6, 3), Decimal("-250.00"),
                                     "Transferência enviada pelo Pix - Mercado Bom Preço, Ltda", "6a1f0c3e-0002")
    assert lines[2].amount == Decimal("3500.00")


def test_an_empty_statement_is_refused_saying_there_is_nothing_to_import() -> None:
    assert "não tem lançamentos" in refusal("itau_empty.ofx")
    assert "vazio" in refusal("x.csv", b"")
    assert "não tem lançamentos" in refusal("x.csv", b"date,title,amount\n")


def test_a_truncated_ofx_is_refused_as_incomplete() -> None:
    assert "incompleto" in refusal("itau_truncated.ofx")


def test_a_truncated_csv_is_refused_naming_the_line() -> None:
    assert "linha 5" in refusal("nubank_card_truncated.csv")


def test_a_csv_of_another_layout_is_refused_naming_the_layouts_read() -> None:
    assert "Nubank" in refusal("unknown_layout.csv")


def test_a_file_of_5001_lines_is_refused_and_one_of_5000_is_read() -> None:
    rows = [f"2026-06-{1 + i % 28:02d},Compra {i},{i % 97 + 1}.50" for i in range(MAX_STATEMENT_LINES + 1)]
    too_many = ("date,title,amount\n" + "\n".join(rows)).encode()
    assert "5001 lançamentos" in refusal("big.csv", too_many)
    assert len(parse_statement("ok.csv", ("date,title,amount\n" + "\n".join(rows[:-1])).encode()).lines) == 5000


def test_a_file_over_20_mb_is_refused() -> None:
    assert "20 MB" in refusal("big.ofx", b" " * (20 * 1024 * 1024 + 1))


def test_garbage_with_an_ofx_name_is_refused_as_unreadable() -> None:
    assert "OFX" in refusal("x.ofx", b"\x00\x01\x02 not an ofx </OFX>")


def found(name: str, data: bytes) -> NotAStatement:
    with pytest.raises(NotAStatement) as refused:
        parse_statement(name, data)
    return refused.value


def test_a_csv_with_a_field_over_128_kb_is_refused_naming_its_line() -> None:
    data = ("date,title,amount\n2026-06-02,Mercado,10.00\n2026-06-03," + "x" * 200_000 + ",5.00\n").encode()
    refused = found("nubank.csv", data)
    assert (refused.found, refused.line) == (FileKind.OVERSIZED_FIELD, 3)


def zipped(name: str) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr(name, (SAMPLES / name).read_bytes())
    return out.getvalue()


def picture(kind: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (40, 30), (10, 20, 30)).save(out, kind)
    return out.getvalue()


UTF16_OFX = (SAMPLES / "itau_june.ofx").read_bytes().decode("latin-1").encode("utf-16")
UTF16_CSV = (SAMPLES / "nubank_card.csv").read_bytes().decode("utf-8-sig").encode("utf-16-le")  # no BOM


@pytest.mark.parametrize(("name", "data", "kind"), [
    ("extrato.ofx", UTF16_OFX, FileKind.UTF16),
    ("nubank.csv", UTF16_CSV, FileKind.UTF16),
    ("extrato.ofx", zipped("itau_june.ofx"), FileKind.ZIP),
    ("extrato.ofx", picture("PNG"), FileKind.PNG),
    ("extrato.csv", picture("JPEG"), FileKind.JPEG),
    ("extrato.ofx", b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj", FileKind.PDF),
], ids=["utf16-ofx", "utf16-csv-no-bom", "zip-ofx", "png-ofx", "jpeg-csv", "pdf-ofx"])
def test_a_file_that_is_no_statement_is_refused_saying_what_it_is(name: str, data: bytes, kind: FileKind) -> None:
    refused = found(name, data)
    assert refused.found is kind
    assert "incompleto" not in str(refused)


def test_only_ofx_and_csv_names_are_statements() -> None:
    assert is_statement("Extrato.OFX") and is_statement("nubank.csv")
    assert not is_statement("foto.jpg") and not is_statement(None)


@pytest.mark.parametrize(("name", "card"), [("card_v2.ofx", True), ("nubank_card.csv", True),
                                            ("itau_june.ofx", False), ("nubank_account.csv", False)])
def test_a_card_statement_says_it_is_a_cards(name: str, card: bool) -> None:
    assert parse_statement(name, (SAMPLES / name).read_bytes()).card is card
