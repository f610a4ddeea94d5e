"""Incoming mail: reading a message into its sender, the headers a reply needs and its command lines
(the gateway, the IMAP poller and the inbox runner are in `judge.runtime`)."""
