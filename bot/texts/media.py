"""What the bot says about what couples send besides text (contract §8): voice notes, photos and
bank statement files."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot.texts.format import clip
from domain.statements import FileKind

SHOWN_ASIDE_LINES: Final = 8  # statement lines listed in a message; the rest counted


TRANSCRIPT_SHOWN_CHARS: Final = 3000


def transcript_text(transcript: str) -> str:
    """The voice note as the bot heard it, so a misheard amount is seen before anyone confirms."""
    shown = transcript if len(transcript) <= TRANSCRIPT_SHOWN_CHARS else transcript[:TRANSCRIPT_SHOWN_CHARS] + "…"
    return f"🎤 {shown}"


def audio_too_long_text(max_minutes: int, max_megabytes: int) -> str:
    return (f"🎤 Esse áudio passa do limite ({max_minutes} minutos ou {max_megabytes} MB); "
            "não consigo ouvi-lo. Mande um áudio mais curto ou escreva o pedido.")


def empty_audio_text() -> str:
    return "🎤 Esse áudio chegou vazio (0 bytes). Nada foi registrado; grave de novo ou escreva o pedido."


def bad_duration_text(seconds: int) -> str:
    return (f"🎤 Esse áudio diz durar {seconds} s, o que não existe. Nada foi registrado; "
            "grave de novo ou escreva o pedido.")


def not_audio_text() -> str:
    return ("🎤 Esse arquivo não é um áudio que eu reconheça (leio OGG/Opus, MP3, M4A, WAV, WebM e FLAC). "
            "Nada foi registrado; grave de novo ou escreva o pedido.")


def transcription_failed_text() -> str:
    return ("🎤 Não consegui transcrever o áudio agora. Nada foi registrado; "
            "tente mandar de novo ou escreva o pedido.")


def empty_transcript_text() -> str:
    return "🎤 Não entendi nenhuma palavra nesse áudio. Nada foi registrado; pode escrever o pedido?"


def download_failed_text() -> str:
    return "⚠️ Não consegui baixar o arquivo do Telegram. Nada foi registrado; tente mandar de novo."


def file_too_big_text(max_megabytes: int) -> str:
    return f"⚠️ O arquivo passa do limite de {max_megabytes} MB que o Telegram entrega a bots. Nada foi registrado."


def no_vision_text(model: str) -> str:
    return (f"📷 O modelo configurado ({model}) não lê imagens. Nada foi registrado; escreva o gasto "
            "(ex.: /gasto 37,90 mercado) ou peça a quem cuida do bot para definir VISION_MODEL.")


def unreadable_image_text() -> str:
    return "📷 Não consegui abrir essa imagem. Nada foi registrado; mande outra foto ou escreva o gasto."


def image_too_large_text(max_side: int) -> str:
    side = f"{max_side:,}".replace(",", ".")
    return (f"📷 Essa imagem é maior que as fotos do Telegram (até {side} px de lado), então não a abro. "
            "Nada foi registrado; mande uma foto da câmera ou escreva o gasto.")


def statement_unreadable_text(reason: str) -> str:
    return f"🏦 {reason}"


_FOUND: Final = {
    FileKind.ZIP: ("é um arquivo compactado (ZIP, como um .zip ou uma planilha .xlsx), não um extrato",
                   "se o extrato está dentro dele, descompacte e mande o .ofx ou .csv de dentro"),
    FileKind.GZIP: ("é um arquivo compactado (GZIP), não um extrato",
                    "descompacte e mande o .ofx ou .csv de dentro"),
    FileKind.PDF: ("é um PDF, não um extrato .ofx ou .csv",
                   "no app ou no site do banco, exporte o extrato em OFX (ou o CSV do Nubank)"),
    FileKind.PNG: ("é uma imagem PNG, não um extrato",
                   "para um comprovante, mande a imagem como foto; para importar, baixe o .ofx ou .csv no banco"),
    FileKind.JPEG: ("é uma imagem JPEG, não um extrato",
                    "para um comprovante, mande a imagem como foto; para importar, baixe o .ofx ou .csv no banco"),
    FileKind.UTF16: ("está em UTF-16, e eu leio extratos em UTF-8 ou Latin-1, como os bancos os exportam",
                     "baixe o extrato de novo no banco, ou salve-o como UTF-8"),
    FileKind.UTF32: ("está em UTF-32, e eu leio extratos em UTF-8 ou Latin-1, como os bancos os exportam",
                     "baixe o extrato de novo no banco, ou salve-o como UTF-8"),
}


def not_a_statement_text(found: FileKind, file: str, line: int | None = None) -> str:
    """A file sent as a statement that is something else: what it is, and what to send instead."""
    if found is FileKind.OVERSIZED_FIELD:
        where = f"A linha {line} de {clip(file)}" if line is not None else clip(file)
        return (f"🏦 {where} tem um campo com mais de 128 KB: isso não é um extrato de banco. "
                "Nada foi importado; confira se mandou o arquivo certo.")
    what, instead = _FOUND[found]
    return f"🏦 {clip(file)} {what}. Nada foi importado; {instead}."


def nothing_new_text(file: str, skipped: int, unmatched: Sequence[str], credits: int, counted: int = 0) -> str:
    """A statement whose debits were all imported before, or match no expense: nothing proposed."""
    lines = [f"🏦 Nada novo para importar em {clip(file)}."]
    if skipped:
        lines.append(f"Já importados antes: {skipped}.")
    if counted:
        lines.append(f"Parcelas que a fatura já tem (lançadas antes): {counted}.")
    if unmatched:
        lines.append(f"Sem despesa correspondente: {len(unmatched)} (cadastre a despesa ou um apelido "
                     "com o nome que aparece no extrato e mande o arquivo de novo):")
        distinct = list(dict.fromkeys(unmatched))
        lines += [f"• {clip(text)}" for text in distinct[:SHOWN_ASIDE_LINES]]
        if len(distinct) > SHOWN_ASIDE_LINES:
            lines.append(f"• … e mais {len(distinct) - SHOWN_ASIDE_LINES}")
    if credits:
        lines.append(f"Créditos (não são gastos): {credits}.")
    return "\n".join(lines)


def which_card_text(cards: list[str]) -> str:
    """A card's statement, and the household has several cards: which one it is."""
    return ("💳 Este extrato é de um cartão de crédito. De qual? Mande o arquivo de novo com o nome "
            f"do cartão na legenda ({', '.join(cards)}). Nada foi importado.")
