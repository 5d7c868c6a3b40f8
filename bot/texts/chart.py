"""The month as a picture (PNG): expected vs spent per expense, and the goals' progress.

matplotlib is imported here, lazily, on the first chart: a worker that never draws one does not
pay for it at start-up (tests/unit/bot/test_schedule_texts_and_chart.py checks). The Agg canvas is used directly, with
no pyplot state, so charts can be drawn in a worker thread; one at a time, since matplotlib's
text and font caches are shared.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import io
import threading
from typing import Any, Final

from bot.texts.format import money, month_br
from domain.reports import GoalReport, MonthReport

WIDTH_IN: Final = 7.2  # at 150 dpi: 1080 px, a phone screen's width
DPI: Final = 150
PLANNED: Final = "#cfd8dc"
SPENT: Final = "#26a69a"
OVER: Final = "#e53935"
GOAL: Final = "#5c6bc0"
TEXT: Final = "#263238"
MUTED: Final = "#607d8b"
MAX_LABEL: Final = 40  # characters of an expense's or goal's name above its bar
ROW_IN: Final = 0.62  # inches per expense or goal
HEADER_IN: Final = 1.2

_drawing = threading.Lock()


def _short(name: str) -> str:
    return name if len(name) <= MAX_LABEL else name[: MAX_LABEL - 1] + "…"


def render_month_chart(report: MonthReport) -> bytes:
    """A PNG of `report`, readable on a phone."""
    with _drawing:
        try:
            return _render(report)
        finally:
            _give_memory_back()


def _give_memory_back() -> None:
    """A figure is a web of cycles: collect it now, and let glibc return the freed pages, so a
    worker keeps matplotlib's import and little else after a chart (bench/run.py measures it:
    ~38 MB more after six charts without this)."""
    # A full collection: part of a figure survives into the oldest generation while it is drawn
    # (8 MB more kept with gc.collect(1)). It walks the whole process, ~50 ms on a quiet core.
    gc.collect()
    with contextlib.suppress(Exception):  # not glibc (macOS, musl): the pages stay with the process
        ctypes.CDLL(None).malloc_trim(0)


def _render(report: MonthReport) -> bytes:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    goals = _reportable(report)
    rows = [max(1, len(report.budget.expenses))] + ([len(goals)] if goals else [])
    heights = [0.55 + ROW_IN * count for count in rows]
    total = sum(heights) + HEADER_IN
    figure = Figure(figsize=(WIDTH_IN, total), dpi=DPI, facecolor="white")
    canvas = FigureCanvasAgg(figure)
    grid = figure.add_gridspec(len(heights), 1, height_ratios=heights, hspace=0.45 / total * len(heights),
                               left=0.04, right=0.96, top=1 - HEADER_IN / total, bottom=0.15 / total)
    figure.text(0.04, 1 - 0.2 / total, month_br(report.period).capitalize(), fontsize=18,
                fontweight="bold", color=TEXT, va="top", parse_math=False)
    if report.budget.expenses:
        figure.text(0.04, 1 - 0.6 / total,
                    f"Gasto {money(report.budget.actual_total)} de {money(report.budget.expected_total)} previstos",
                    fontsize=12.5, color=MUTED, va="top", parse_math=False)
    _expenses(figure.add_subplot(grid[0]), report)
    if goals:
        _goals(figure.add_subplot(grid[1]), goals)
    buffer = io.BytesIO()
    # zlib level 1: a third of the time of the default level for a slightly larger file.
    figure.savefig(buffer, format="png", dpi=DPI, facecolor="white", pil_kwargs={"compress_level": 1})
    # The pixel buffer goes now, not whenever the figure's cycles are collected.
    figure.clear()
    with contextlib.suppress(AttributeError):
        del canvas.renderer
    return buffer.getvalue()


def _clean(axes: Any, rows: int) -> None:
    for side in ("top", "right", "bottom", "left"):
        axes.spines[side].set_visible(False)
    axes.set_xticks([])
    axes.set_yticks([])
    axes.set_ylim(rows - 0.35, -0.75)  # first row on top, room above it for its name


def _row_name(axes: Any, y: float, name: str) -> None:
    axes.text(0, y - 0.36, _short(name), ha="left", va="bottom", fontsize=12.5, color=TEXT, parse_math=False)


def _reportable(report: MonthReport) -> list[GoalReport]:
    """The goals a bar can show (one without a rate is told of in the closing's text)."""
    return [goal for goal in report.goals if isinstance(goal, GoalReport)]


def _expenses(axes: Any, report: MonthReport) -> None:
    lines = report.budget.expenses
    axes.set_title("Despesas: previsto x gasto", loc="left", fontsize=13, color=TEXT, pad=4,
                   fontweight="bold")
    _clean(axes, max(1, len(lines)))
    if not lines:
        axes.text(0.5, 0.5, "Nenhuma despesa cadastrada", ha="center", va="center", fontsize=12.5,
                  color=MUTED, transform=axes.transAxes)
        return
    # Bars are drawn from the Decimal amounts, converted for plotting only: nothing is summed here.
    widest = max(max(float(line.expected.amount), float(line.actual.amount)) for line in lines) or 1.0
    positions = list(range(len(lines)))
    axes.barh(positions, [float(line.expected.amount) for line in lines], height=0.42, color=PLANNED,
              label="Previsto", zorder=1)
    axes.barh(positions, [float(line.actual.amount) for line in lines], height=0.22,
              color=[OVER if line.over else SPENT for line in lines], label="Gasto", zorder=2)
    for y, line in zip(positions, lines, strict=True):
        _row_name(axes, y, line.name)
        end = max(float(line.expected.amount), float(line.actual.amount))
        axes.text(end + widest * 0.02, y, f"{money(line.actual)} de {money(line.expected)}",
                  va="center", ha="left", fontsize=11, color=OVER if line.over else TEXT, parse_math=False)
    axes.set_xlim(0, widest * 1.75)
    axes.legend(loc="lower right", bbox_to_anchor=(1.0, 1.0), fontsize=10.5, frameon=False, ncols=2,
                handlelength=1.2, borderaxespad=0.2)


def _goals(axes: Any, goals: list[GoalReport]) -> None:
    axes.set_title("Metas", loc="left", fontsize=13, color=TEXT, pad=4, fontweight="bold")
    _clean(axes, len(goals))
    positions = list(range(len(goals)))
    axes.barh(positions, [100] * len(goals), height=0.42, color=PLANNED, zorder=1)
    axes.barh(positions, [goal.progress_percent for goal in goals], height=0.42, color=GOAL, zorder=2)
    for y, goal in zip(positions, goals, strict=True):
        _row_name(axes, y, goal.name)
        label = f"{goal.progress_percent} % · {money(goal.saved_in_target_currency)} de {money(goal.target)}"
        if goal.required_monthly is not None and not goal.reached:
            label += f"\nfaltam {money(goal.required_monthly)}/mês"
        axes.text(103, y, label, va="center", ha="left", fontsize=10.5, color=TEXT, linespacing=1.25,
                  parse_math=False)
    axes.set_xlim(0, 175)
