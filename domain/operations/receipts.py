"""What every write tool returns."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ToolReceipt:
    """The outcome of one write-tool call.

    confirmed=False, persisted=False: a preview, nothing written.
    confirmed=True,  persisted=True:  the one call that wrote.
    confirmed=True,  persisted=False: a repeat of a confirmed operation; nothing loaded or written.
    """

    operation_id: str
    preview: dict[str, Any]
    confirmed: bool
    persisted: bool

    def __post_init__(self) -> None:
        if self.persisted and not self.confirmed:
            raise ValueError("a receipt cannot be persisted without being confirmed")

    def repeated(self) -> ToolReceipt:
        """The same receipt as seen by a repeat: confirmed, and nothing persisted this time."""
        return ToolReceipt(self.operation_id, self.preview, confirmed=True, persisted=False)
