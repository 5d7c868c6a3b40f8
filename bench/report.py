"""bench/run.py's report as printed: issue 9's goals, each key against its goal on SQLite (and
PostgreSQL), the informational figures behind them, and the blocks of the ledger, the worker
process and the schedule.
"""

from __future__ import annotations

from typing import Any

from bench.schedule import schedule_table

GOALS = {"turn_vs_echo": 2.0, "reader_vs_command": 1.2, "confirm_vs_echo": 1.5, "confirm_history_ratio": 1.2,
         "prompt_tokens": 1600, "concurrent_chats_wall_ratio": 2.0}


def verdict(key: str, value: float | None) -> str:
    if value is None:
        return "n/a"
    return "ok" if value <= GOALS[key] else "MISSED"


def fmt(value: Any, digits: int = 2) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def table(report: dict[str, Any]) -> str:
    dbs = [("SQLite", report)] + ([("PostgreSQL", report["postgresql"])] if report.get("postgresql") else [])
    lines = [f"{'key':34}{'goal':>8}" + "".join(f"{name:>14}" for name, _ in dbs)]
    for key in ("turn_vs_echo", "reader_vs_command", "confirm_vs_echo", "confirm_history_ratio",
                "concurrent_chats_wall_ratio"):
        cells = "".join(f"{fmt(r.get(key)) + ' ' + ('✓' if verdict(key, r.get(key)) == 'ok' else '✗'):>14}"
                        for _, r in dbs)
        lines.append(f"{key:34}{'<= ' + fmt(GOALS[key], 1):>8}{cells}")
    tokens = report.get("prompt_tokens")
    lines.append(f"{'prompt_tokens (gpt-4o-mini)':34}{'<= 1600':>8}"
                 f"{fmt(tokens) + ' ' + ('✓' if verdict('prompt_tokens', tokens) == 'ok' else '✗'):>14}")
    lines.append("")
    lines.append("informational" + " " * 29 + "".join(f"{name:>14}" for name, _ in dbs))
    rows = [("turn floor / echo (lower bound)", lambda r: r["details"]["floor"]["turn_floor_vs_echo"]),
            ("confirm floor / echo (lower bound)", lambda r: r["details"]["floor"]["confirm_floor_vs_echo"]),
            ("  durable inbox write ms", lambda r: r["details"]["floor"]["inbox_write_ms"]),
            ("  read transaction (6 selects) ms", lambda r: r["details"]["floor"]["read_transaction_ms"]),
            ("  durable confirm write ms", lambda r: r["details"]["floor"]["confirm_write_ms"]),
            ("100 chats floor at 30 messages/s (ratio)",
             lambda r: (r["details"].get("concurrent") or {}).get("flood_floor_s")),
            ("concurrent, no flood limit (ratio)", lambda r: r.get("concurrent_chats_wall_ratio_no_flood_limit")),
            ("turn_history_ratio", lambda r: r.get("turn_history_ratio")),
            ("echo median ms", lambda r: r["details"]["echo_ms"]),
            ("turn median ms", lambda r: r["details"]["turn_ms"]),
            ("confirm median ms", lambda r: r["details"]["confirm_ms"]),
            ("confirm, 100k history, median ms", lambda r: r["details"]["confirm_history_ms"]),
            ("turn, 100k history, median ms", lambda r: r["details"]["turn_history_ms"]),
            ("echo server CPU ms per message", lambda r: r["details"]["echo_cpu_ms_per_message"]),
            ("bot CPU ms per turn + confirmation", lambda r: r["details"]["bot_cpu_ms_per_turn_and_confirm"]),
            ("100 chats wall s", lambda r: (r["details"].get("concurrent") or {}).get("wall_s")),
            ("100 chats wall s, no flood limit",
             lambda r: (r["details"].get("concurrent_no_flood_limit") or {}).get("wall_s")),
            ("100 chats: worker CPU s, no flood limit",
             lambda r: (r["details"].get("concurrent_no_flood_limit") or {}).get("worker_cpu_s")),
            ("bench bot server peak RSS MB", lambda r: r["details"].get("bot_peak_rss_mb"))]
    for label, get in rows:
        lines.append(f"{label:42}" + "".join(f"{fmt(get(r)):>14}" for _, r in dbs))
    for name, r in dbs:  # --against: other checkouts timed in the same rounds
        for repo, figures in (r["details"].get("against") or {}).items():
            lines.append(f"against {repo} ({name}): turn {fmt(figures['turn_ms'])} ms, confirm "
                         f"{fmt(figures['confirm_ms'])} ms (this checkout: {fmt(r['details']['turn_ms'])}, "
                         f"{fmt(r['details']['confirm_ms'])}); paired, minus this checkout: turn "
                         f"{fmt(figures['turn_minus_this_ms'])} ms, confirm {fmt(figures['confirm_minus_this_ms'])} "
                         f"ms; CPU {fmt(figures['cpu_ms_per_turn_and_confirm'])} ms")
    ledger = report.get("ledger")
    if ledger:  # bench/ledger.py's block: the ledger's reads, through the service
        lines.append("")
        for name, figures in [("SQLite", ledger)] + ([("PostgreSQL", ledger["postgresql"])]
                                                     if ledger.get("postgresql") else []):
            exports = figures["details"]["exports"]
            lines.append(f"ledger ({name}): /extrato of 1,000 entries / /resumo {fmt(figures['extrato_vs_resumo'])} "
                         f"(<= 1.5); /exportar of 100,000 entries {fmt(figures['export_100k_s'])} s (<= 5); "
                         "peak RSS " + ", ".join(f"{fmt(e['peak_rss_mb'], 0)} MB at {int(n):,} (+{fmt(e['export_added_mb'], 1)})"
                                                 for n, e in exports.items()))
    worker = report.get("worker")
    if worker:
        lines.append("")
        lines.append(f"worker: `{worker['startup_command']}` answers /healthz after {worker['startup_s']:.2f} s "
                     f"(median of {len(worker['startup_runs_s'])}); litellm imported by then: "
                     f"{'yes' if worker['litellm_imported_at_startup'] else 'no'}; first turn (imports "
                     f"litellm) {worker['first_turn_s']:.2f} s")
        lines.append(f"worker: peak RSS {worker['peak_rss_after_startup_mb']:.0f} MB after start-up, "
                     f"{worker['peak_rss_mb']:.0f} MB after 20 turns and 20 confirmations through litellm")
    if report.get("schedule"):
        lines += schedule_table(report["schedule"])
    return "\n".join(lines)
