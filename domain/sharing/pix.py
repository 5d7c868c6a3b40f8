"""Pix: a member's key, and the static BR Code ("copia e cola") that pays an acerto.

The key is validated by kind as the DICT knows them: CPF and CNPJ with their check digits, an
e-mail, a +55 phone, or a random key (a UUID). Any control or invisible character is refused
before anything else, and no message here repeats the key: it is never logged or echoed.

The BR Code is BACEN's static payload (Manual de Padrões para Iniciação do Pix, EMV MPM): TLV
fields, each a two-digit tag, a two-digit length and the value; the last, 63, is the
CRC16-CCITT-FALSE (polynomial 0x1021, initial 0xFFFF, no reflection, no final XOR) of everything
before it, "6304" included, as four upper-case hex digits. No maintained Python library was
sound enough to depend on (see docs/architecture.md), so this is the small encoder, tested
against the manual's own example.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from domain.errors import DomainError
from domain.money import Money

KeyKind = Literal["cpf", "cnpj", "email", "phone", "random"]
KIND_NAMES: dict[str, str] = {"cpf": "CPF", "cnpj": "CNPJ", "email": "e-mail", "phone": "telefone",
                              "random": "chave aleatória"}
MAX_KEY = 77  # the DICT's longest key: an e-mail
NAME_LIMIT = 25
CITY_LIMIT = 15
TXID_LIMIT = 25
DEFAULT_CITY = "BRASIL"
NO_TXID = "***"
GUI = "br.gov.bcb.pix"
BRL = "986"  # ISO 4217 numeric code: the only currency Pix moves


class InvalidPixKey(DomainError):
    """A key that is none of the DICT's kinds (the message never repeats it)."""


@dataclass(frozen=True)
class PixKey:
    kind: KeyKind
    value: str = ""  # as the DICT writes it: digits, lower-case e-mail or UUID, +55 and digits

    def __repr__(self) -> str:  # never in a log line
        return f"PixKey({self.kind}, ***)"

    @property
    def kind_name(self) -> str:
        return KIND_NAMES[self.kind]


_CPF = re.compile(r"\d{3}\.?\d{3}\.?\d{3}-?\d{2}")
_CNPJ = re.compile(r"\d{2}\.?\d{3}\.?\d{3}/?\d{4}-?\d{2}")
_PHONE = re.compile(r"\+55[\s().-]*([1-9]\d)[\s().-]*(9?\d{4})[\s.-]*(\d{4})")
_EMAIL = re.compile(r"[a-z0-9!#$%&'*+/=?^_`{|}~.-]+@[a-z0-9-]+(\.[a-z0-9-]+)+")
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def pix_key(text: object) -> PixKey:
    """The key `text` stands for, normalized, or InvalidPixKey saying what kind it failed."""
    if not isinstance(text, str) or any(_hidden(char) for char in text):
        raise InvalidPixKey("Chave Pix inválida: ela tem um caractere de controle ou invisível.")
    key = text.strip()
    if not key or len(key) > MAX_KEY + 10:
        raise InvalidPixKey("Chave Pix inválida: vazia ou longa demais.")
    if key.startswith("+"):
        match = _PHONE.fullmatch(key)
        if match is None:
            raise InvalidPixKey("Telefone inválido para Pix: use +55, o DDD e o número, como +55 11 98765-4321.")
        return PixKey("phone", "+55" + "".join(match.groups()))
    if "@" in key:
        email = key.lower()
        if len(email) > MAX_KEY or _EMAIL.fullmatch(email) is None:
            raise InvalidPixKey("E-mail inválido para Pix.")
        return PixKey("email", email)
    if _UUID.fullmatch(key.lower()):
        return PixKey("random", key.lower())
    if _CPF.fullmatch(key):
        digits = re.sub(r"\D", "", key)
        if not _cpf_ok(digits):
            raise InvalidPixKey("CPF inválido: os dígitos verificadores não conferem.")
        return PixKey("cpf", digits)
    if _CNPJ.fullmatch(key):
        digits = re.sub(r"\D", "", key)
        if not _cnpj_ok(digits):
            raise InvalidPixKey("CNPJ inválido: os dígitos verificadores não conferem.")
        return PixKey("cnpj", digits)
    raise InvalidPixKey("Chave Pix inválida: use CPF, CNPJ, e-mail, telefone com +55 ou a chave "
                        "aleatória.")


def _hidden(char: str) -> bool:
    return unicodedata.category(char) in ("Cc", "Cf", "Co", "Cs", "Zl", "Zp") or char in "\u2028\u2029"


def _check_digit(digits: str, weights: range | list[int]) -> str:
    total = sum(int(d) * w for d, w in zip(digits, weights, strict=True))
    rest = total % 11
    return "0" if rest < 2 else str(11 - rest)


def _cpf_ok(digits: str) -> bool:
    if len(digits) != 11 or len(set(digits)) == 1:
        return False
    first = _check_digit(digits[:9], range(10, 1, -1))
    second = _check_digit(digits[:9] + first, range(11, 1, -1))
    return digits[9:] == first + second


def _cnpj_ok(digits: str) -> bool:
    if len(digits) != 14 or len(set(digits)) == 1:
        return False
    weights = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]
    first = _check_digit(digits[:12], weights)
    second = _check_digit(digits[:12] + first, [6, *weights])
    return digits[12:] == first + second


# --------------------------------------------------------------------------- the BR Code


def br_code(key: PixKey | str, *, name: str, amount: Money | None = None, txid: str = NO_TXID,
            city: str = DEFAULT_CITY) -> str:
    """The static "copia e cola" that pays `amount` (BRL; none: the payer types it) to `key` (a
    PixKey, or a key as the DICT writes it, as a member's is stored)."""
    if amount is not None and amount.currency != "BRL":
        raise DomainError(f"O Pix só transfere reais, não {amount.currency}.")
    value = key.value if isinstance(key, PixKey) else key
    account = _field("00", GUI) + _field("01", value)
    fields = [_field("00", "01"), _field("26", account), _field("52", "0000"), _field("53", BRL)]
    if amount is not None:
        fields.append(_field("54", f"{amount.amount.quantize(Decimal('0.01')):f}"))
    fields += [_field("58", "BR"), _field("59", _ascii(name, NAME_LIMIT) or "PIX"),
               _field("60", _ascii(city, CITY_LIMIT).upper() or DEFAULT_CITY),
               _field("62", _field("05", _txid(txid)))]
    payload = "".join(fields) + "6304"
    return payload + crc16(payload)


def crc16(text: str) -> str:
    """CRC16-CCITT-FALSE of `text`'s UTF-8 bytes, as four upper-case hex digits."""
    crc = 0xFFFF
    for byte in text.encode("utf-8"):
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return f"{crc:04X}"


def fields_of(payload: str) -> dict[str, str]:
    """A BR Code's top-level fields by tag (a nested one as its own TLV text); ValueError when
    the TLV structure or the CRC does not hold."""
    found: dict[str, str] = {}
    index = 0
    while index < len(payload):
        tag, size = payload[index:index + 2], payload[index + 2:index + 4]
        if len(tag) < 2 or not size.isdigit() or index + 4 + int(size) > len(payload):
            raise ValueError(f"broken TLV at {index}")
        found[tag] = payload[index + 4:index + 4 + int(size)]
        index += 4 + int(size)
    if found.get("63") != crc16(payload[:-4]):
        raise ValueError("CRC does not match")
    return found


def _field(tag: str, value: str) -> str:
    if len(value) > 99:
        raise ValueError(f"field {tag} longer than 99 characters")
    return f"{tag}{len(value):02d}{value}"


def _ascii(text: str, limit: int) -> str:
    """Accents dropped, only printable ASCII letters, digits and spaces, cut to `limit`."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    plain = re.sub(r"[^A-Za-z0-9 ]", "", plain)
    return " ".join(plain.split())[:limit].strip()


def _txid(text: str) -> str:
    if text == NO_TXID:
        return text
    return re.sub(r"[^A-Za-z0-9]", "", text)[:TXID_LIMIT] or NO_TXID
