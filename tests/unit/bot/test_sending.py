"""Splitting a long reply the way Telegram counts it (UTF-16 code units), at line breaks."""

from __future__ import annotations

from bot.telegram.sending import MAX_TEXT, split_text, utf16_units


def test_a_short_text_is_one_message() -> None:
    assert split_text("oi\ntudo bem") == ["oi\ntudo bem"]


def test_a_long_text_is_cut_at_line_breaks_into_parts_within_the_limit() -> None:
    lines = [f"Despesa {n:03d} 🏠: R$ 1.500,00 de R$ 2.000,00 ▓▓▓▓▓▓░░ 75 %" for n in range(200)]
    parts = split_text("\n".join(lines))

    assert len(parts) > 1
    assert all(utf16_units(part) <= MAX_TEXT for part in parts)
    assert "\n".join(parts).splitlines() == lines


def test_emoji_count_twice_as_telegram_counts_them() -> None:
    text = "💡" * 3000  # 3,000 characters, 6,000 UTF-16 code units

    parts = split_text(text)

    assert len(text) < MAX_TEXT < utf16_units(text)
    assert [utf16_units(part) for part in parts] == [4096, 6000 - 4096]
    assert "".join(parts) == text
