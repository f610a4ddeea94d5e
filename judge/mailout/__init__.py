"""Outgoing mail: the words of every mail (templates), who gets them, and the envelope around each body
(the outbox sender is `judge.runtime.outbox`)."""
