"""The use cases: the application's public API is `service.HouseholdService` (and `media.MediaService`,
`schedule.Schedule`); the rest of this folder is what they are made of. No Telegram here."""
