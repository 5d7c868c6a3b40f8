"""Contract §3's import path for the write tools' receipt (it lives in domain/operations/)."""

from domain.operations.receipts import ToolReceipt

__all__ = ["ToolReceipt"]
