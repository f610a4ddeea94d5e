"""Outgoing mail: the envelope around each body, and the outbox sender."""
