"""Reading bank and card statement files with no model: OFX (1.x SGML and 2.x XML) and Nubank's CSVs.

OFX goes through ofxtools' header reader and parser (maintained, pure Python, both OFX versions;
see docs/operations.md, "Bank statements" for the comparison with ofxparse). Its strict `convert()` is not used: Brazilian
banks leave out elements the spec requires (a missing <LANGUAGE> alone makes it refuse the file),
so the transactions are read from the parsed tree instead. The encoding is decided here, not by
the header, which Brazilian banks often get wrong (USASCII or 1252 over Latin-1 bytes, a UTF-8 BOM
before a 1252 header): UTF-8 when the bytes are UTF-8, Latin-1 otherwise.

Every problem is a `StatementError` whose pt-BR message a person can act on; nothing partial is
returned.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from domain.statements import (
    MAX_STATEMENT_BYTES,
    MAX_STATEMENT_LINES,
    FileKind,
    NotAStatement,
    StatementError,
    StatementLine,
)
from domain.text import fold

SUPPORTED = (".ofx", ".csv")
CARD_HEADER = ("date", "title", "amount")
ACCOUNT_HEADER = ("data", "valor", "identificador", "descricao")
_SGML_HEADER_LINE = re.compile(r"^(ENCODING|CHARSET):.*$", re.MULTILINE)


@dataclass(frozen=True)
class Statement:
    lines: list[StatementLine]
    currency: str | None = None  # as the file declares it (OFX <CURDEF>), when it does
    card: bool = False  # a credit card's (OFX CREDITCARDMSGSRSV1, Nubank's card CSV): its lines go on a card


def is_statement(filename: str | None) -> bool:
    return bool(filename) and str(filename).lower().endswith(SUPPORTED)


def too_big_message() -> str:
    return (f"O arquivo passa do limite de {MAX_STATEMENT_BYTES // (1024 * 1024)} MB. "
            "Exporte um período menor do extrato.")


def parse_statement(filename: str, data: bytes) -> Statement:
    """The statement's lines in the file's order, or StatementError."""
    if len(data) > MAX_STATEMENT_BYTES:
        raise StatementError(too_big_message())
    found = what_it_is(data)
    if found is not None:
        raise NotAStatement(found)
    text = _decode(data)
    if not text.strip():
        raise StatementError("O arquivo está vazio: não há lançamentos para importar.")
    name = filename.lower()
    if name.endswith(".ofx"):
        statement = _parse_ofx(text)
    elif name.endswith(".csv"):
        lines, card = _parse_csv(text)
        statement = Statement(lines, card=card)
    else:
        raise StatementError("Só leio extratos .ofx ou .csv.")
    if not statement.lines:
        raise StatementError("O extrato não tem lançamentos: nada para importar.")
    if len(statement.lines) > MAX_STATEMENT_LINES:
        raise StatementError(
            f"O extrato tem {len(statement.lines)} lançamentos; o limite é {MAX_STATEMENT_LINES}. "
            "Exporte um período menor.")
    return statement


# Magic numbers of what people send instead of a statement (a ZIP also covers .xlsx and .ods).
_MAGIC: tuple[tuple[bytes, FileKind], ...] = (
    (b"PK\x03\x04", FileKind.ZIP), (b"PK\x05\x06", FileKind.ZIP), (b"\x1f\x8b", FileKind.GZIP),
    (b"%PDF-", FileKind.PDF), (b"\x89PNG\r\n\x1a\n", FileKind.PNG), (b"\xff\xd8\xff", FileKind.JPEG),
    (b"\xff\xfe\x00\x00", FileKind.UTF32), (b"\x00\x00\xfe\xff", FileKind.UTF32),
    (b"\xff\xfe", FileKind.UTF16), (b"\xfe\xff", FileKind.UTF16),
)


def what_it_is(data: bytes) -> FileKind | None:
    """What the bytes are when they are certainly no OFX or CSV text: a known file's magic
    number, a UTF-16 or UTF-32 byte-order mark, or UTF-16 without one (every other byte of a
    text's ASCII is then NUL). None: text, for the readers to try."""
    for magic, kind in _MAGIC:
        if data.startswith(magic):
            return kind
    head = data[:64]
    if len(head) >= 8 and (head[1::2].count(0) >= len(head) // 2 - 1 or head[0::2].count(0) >= len(head) // 2 - 1):
        return FileKind.UTF16
    return None


def _decode(data: bytes) -> str:
    data = data.removeprefix(b"\xef\xbb\xbf")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")  # never fails: every byte is a character
    return text.removeprefix("\ufeff")


# --------------------------------------------------------------------------- OFX


def _parse_ofx(text: str) -> Statement:
    from ofxtools.Parser import OFXTree  # only a statement pays for the import

    text = text.lstrip()
    if not re.search(r"</OFX>\s*$", text, re.IGNORECASE):
        raise StatementError("O arquivo OFX parece incompleto (termina antes de </OFX>). "
                             "Baixe o extrato de novo no banco.")
    if not text.startswith("<?xml"):
        # The text is already decoded: tell ofxtools so, whatever the bank wrote there.
        text = _SGML_HEADER_LINE.sub(lambda m: "ENCODING:UTF-8" if m.group(1) == "ENCODING"
                                     else "CHARSET:NONE", text, count=2)
    tree = OFXTree()
    try:
        tree.parse(io.BytesIO(text.encode("utf-8")))
    except Exception as error:  # ofxtools raises several kinds; any of them means "unreadable"
        raise StatementError(
            f"Não consegui ler este arquivo OFX ({type(error).__name__}). "
            "Confira se é o extrato exportado pelo banco.") from None
    currency = tree.findtext(".//CURDEF")
    lines = [_ofx_line(index, element) for index, element in enumerate(tree.findall(".//STMTTRN"), 1)]
    card = tree.find(".//CCSTMTRS") is not None  # inside CREDITCARDMSGSRSV1
    return Statement(lines, currency.strip().upper() if currency else None, card=card)


def _ofx_line(index: int, element: Any) -> StatementLine:
    def text(tag: str) -> str:
        value = element.findtext(tag)
        return value.strip() if isinstance(value, str) else ""

    amount = _number(text("TRNAMT"))
    posted = _ofx_date(text("DTPOSTED"))
    if amount is None or posted is None:
        raise StatementError(f"O lançamento {index} do OFX não tem valor ou data legíveis "
                             f"(TRNAMT {text('TRNAMT')!r}, DTPOSTED {text('DTPOSTED')!r}).")
    name, memo = text("NAME"), text("MEMO")
    description = name if not memo or fold(memo) == fold(name) else f"{name} {memo}".strip()
    return StatementLine(posted, amount, description or text("TRNTYPE") or "sem descrição",
                         text("FITID") or None)


def _ofx_date(value: str) -> date | None:
    match = re.match(r"(\d{4})(\d{2})(\d{2})", value)
    if match is None:
        return None
    try:
        return date(*(int(part) for part in match.groups()))
    except ValueError:
        return None


# --------------------------------------------------------------------------- CSV


def _parse_csv(text: str) -> tuple[list[StatementLine], bool]:
    reader = csv.reader(io.StringIO(text))
    try:
        rows = [row for row in reader if any(cell.strip() for cell in row)]
    except csv.Error as error:
        # The csv module's limit (128 KB a field) is process-wide, so it is kept, not raised: no
        # bank writes a cell that long.
        if "field larger than field limit" in str(error):
            raise NotAStatement(FileKind.OVERSIZED_FIELD, line=reader.line_num) from None
        raise StatementError(f"Não consegui ler a linha {reader.line_num} deste CSV. "
                             "Nada foi importado; confira o arquivo.") from None
    if not rows:
        return [], False
    header = tuple(fold(cell) for cell in rows[0])
    if header[:3] == CARD_HEADER:
        return list(_card_lines(rows[1:])), True
    if header[:4] == ACCOUNT_HEADER:
        return list(_account_lines(rows[1:])), False
    raise StatementError(
        "Não reconheci este CSV. Leio os do Nubank: fatura do cartão (date,title,amount) e conta "
        "(Data,Valor,Identificador,Descrição), ou um OFX do seu banco.")


def _card_lines(rows: Iterable[list[str]]) -> Iterable[StatementLine]:
    """Nubank card: a positive amount is a purchase; a negative one a payment or a refund."""
    for number, row in enumerate(rows, 2):
        if len(row) < 3:
            raise _bad_row(number, row)
        day, amount = _iso_date(row[0]), _number(row[2])
        if day is None or amount is None:
            raise _bad_row(number, row)
        yield StatementLine(day, -amount, row[1].strip())


def _account_lines(rows: Iterable[list[str]]) -> Iterable[StatementLine]:
    """Nubank account: a negative Valor leaves the account; Identificador is the bank's id."""
    for number, row in enumerate(rows, 2):
        if len(row) < 4:
            raise _bad_row(number, row)
        day, amount = _br_date(row[0]), _number(row[1])
        if day is None or amount is None:
            raise _bad_row(number, row)
        yield StatementLine(day, amount, ",".join(row[3:]).strip(), row[2].strip() or None)


def _bad_row(number: int, row: list[str]) -> StatementError:
    shown = ",".join(row)
    shown = shown if len(shown) <= 80 else shown[:79] + "…"
    return StatementError(f"A linha {number} do CSV não tem data e valor legíveis: {shown!r}. "
                          "Nada foi importado; confira o arquivo (ele pode estar cortado).")


def _iso_date(value: str) -> date | None:
    try:
        return date.fromisoformat(value.strip())
    except ValueError:
        return _br_date(value)


def _br_date(value: str) -> date | None:
    try:
        return datetime.strptime(value.strip(), "%d/%m/%Y").date()
    except ValueError:
        return None


def _number(value: str) -> Decimal | None:
    """`-180.50`, `-180,50`, `1.234,56`, `1,234.56`: the last separator is the decimal one."""
    text = value.strip().replace(" ", "").replace("R$", "")
    if not text:
        return None
    if "," in text and "." in text:
        decimal_sep = "," if text.rfind(",") > text.rfind(".") else "."
        thousands = "." if decimal_sep == "," else ","
        text = text.replace(thousands, "").replace(decimal_sep, ".")
    elif "," in text:
        text = text.replace(",", ".")
    try:
        number = Decimal(text)
    except InvalidOperation:
        return None
    return number if number.is_finite() and abs(number) < Decimal(10) ** 12 else None
