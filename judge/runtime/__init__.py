"""The shell: everything that touches the world (files, locks, the clock, sockets, SMTP, IMAP, the
scheduler, signals), a thin layer around the pure core. Nothing in the core imports it."""
