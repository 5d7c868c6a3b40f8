"""The figures every reliability test records: case, where it ran, attempts, expected, seen.

Tests run in one pytest process, so a module-level list is the collector; `conftest.py` prints it
as a table at the end of the run and writes it to `report.json` beside this file.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

CASES = {
    1: "the same update_id delivered twice, and to 3 workers at once",
    2: "a missing or wrong webhook secret",
    3: "the model takes 70 s",
    4: "Confirmar pressed 24 times across 3 workers by both members",
    5: "Confirmar and Cancelar at the same moment",
    6: "forged, other chat's or malformed callback data",
    7: "a non-member presses Confirmar",
    8: "Confirmar after the preview expired",
    9: "the same operation id with other arguments",
    10: "12 different spends on one budget confirmed at once on 3 workers",
    11: "a stale aggregate saved",
    12: "a worker killed (SIGKILL) between the write and the commit",
    13: "a crash after the commit, before the Telegram reply",
    14: "the database connection dropped during a commit",
    15: "Telegram answers 429 with retry_after",
    16: "prompt injection in a message",
    17: "float, NaN, ∞, negative, too many decimals, bad currency, month 13, day 32, 10^12",
    18: "a hypothesis state machine of propose / confirm / cancel / repeat / conflict / expire",
    19: "presses and messages across 50 chats on 2 workers",
    20: "a callback answered too late (\"query is too old\")",
    21: "the unseen preview: a reply over 4,096 characters, and 502 on every send",
    22: "a poisoned update, and bodies the Update model cannot take",
    23: "look-alike and invisible-character member names, and a NUL byte",
    24: "an edited /gasto 50 -> /gasto 60",
    25: "50 tool calls in one model answer",
    26: "a stranger's /entrar confirmed by themselves",
    27: "/apagar racing a confirmation on another worker",
    28: "↩️ Desfazer and its undo pressed twice, on several workers, and redelivered",
    29: "50 spends (26 paid by Ana, 24 by Bruno) and 10 acertos confirmed at once from 2 workers",
    30: "a statement imported, undone, and the same file sent again twice",
    31: "a stranger reads /resumo, /extrato, /metas, /saldo, /divisao, /exportar and /grafico",
    32: "a CSV with a 200 kB field, and a UTF-16 file, a ZIP and a PNG named .ofx",
    33: "a forged 7,700 x 7,700 photo",
    34: "voice notes of 0 bytes, of a negative duration, and of bytes that are no audio",
    35: "↩️ Desfazer on a confirmed /entrar, and operation ids in what people read",
    36: "/apagar after a supergroup migration",
    37: "a 60 MB chunked body with the right secret",
    38: "a fatura's reminder: 3 workers check the schedule at the same moment",
    39: "20 spends on one expense confirmed at once from 2 workers: the month's 80 % and 100 % warnings",
}


@dataclass(frozen=True)
class Figure:
    case: int
    where: str
    attempts: int
    expected: str
    seen: str
    held: bool


class Figures:
    def __init__(self) -> None:
        self.rows: list[Figure] = []

    def add(self, case: int, where: str, *, attempts: int, expected: str, seen: str,
            held: bool | None = None) -> bool:
        """Records one figure; `held` defaults to expected == seen. Returns `held` for an assert."""
        held = expected == seen if held is None else held
        self.rows.append(Figure(case, where, attempts, expected, seen, held))
        return held

    def table(self) -> str:
        header = "| # | case | where | attempts | expected | seen | held |"
        lines = [header, "|---|---|---|---|---|---|---|"]
        for row in sorted(self.rows, key=lambda r: (r.case, r.where)):
            lines.append(f"| {row.case} | {CASES.get(row.case, '')} | {row.where} | {row.attempts} | "
                         f"{row.expected} | {row.seen} | {'yes' if row.held else 'NO'} |")
        return "\n".join(lines)

    def write(self, path: Path, setting: str) -> None:
        path.write_text(json.dumps({"setting": setting, "figures": [asdict(r) for r in self.rows]},
                                   ensure_ascii=False, indent=1) + "\n")


def each(counts: list[int], what: str, per: str) -> str:
    """"1 preview for each of 10 updates" when every count is 1, else the counts themselves."""
    if counts and all(count == 1 for count in counts):
        return f"1 {what} for each of {len(counts)} {per}s"
    return f"{what}s per {per}: {counts}"


FIGURES = Figures()
