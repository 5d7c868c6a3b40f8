"""The agent's evaluation: pt-BR cases (contract §7) scored against any litellm model."""
