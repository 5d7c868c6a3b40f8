"""The Telegram adapter: handlers, buttons, sending, the webhook server and the periodic rounds."""
