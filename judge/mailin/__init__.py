"""Incoming mail: the SMTP gateway, the IMAP poller, and reading a message into commands."""
