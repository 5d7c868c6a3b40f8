"""What a voice note or audio file is, from its first bytes: checked before a transcription
provider is paid to find out (issue 27). Telegram's voice notes are OGG/Opus; audio files come as
MP3, M4A (MP4), WAV, and now and then WebM or FLAC, every one a format OpenAI's transcription takes.
"""

from __future__ import annotations


def audio_container(data: bytes) -> str | None:
    """The container the bytes start with ("ogg", "mp4", "mp3", "wav", "webm", "flac"), or None
    when they are no audio this bot sends on (an empty file, a page, a picture…)."""
    if data.startswith(b"OggS"):
        return "ogg"
    if data[4:8] == b"ftyp":
        return "mp4"
    if data.startswith(b"ID3") or (len(data) >= 2 and data[0] == 0xFF and data[1] & 0xE0 == 0xE0):
        return "mp3"  # an ID3 tag, or an MPEG audio frame's sync bits (ADTS AAC has them too)
    if data.startswith(b"RIFF") and data[8:12] == b"WAVE":
        return "wav"
    if data.startswith(b"\x1a\x45\xdf\xa3"):
        return "webm"
    if data.startswith(b"fLaC"):
        return "flac"
    return None
