"""Output piped into a reader that leaves early (`judge map show standard --json | head -c 5`) ends
the command quietly: no traceback on the terminal."""
from __future__ import annotations

import subprocess
import sys


def test_a_reader_that_leaves_early_gets_no_traceback():
    command = subprocess.Popen([sys.executable, "-m", "judge.cli", "map", "show", "standard", "--json"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert command.stdout is not None and command.stderr is not None
    assert command.stdout.read(5)
    command.stdout.close()  # as `head` does once it has read enough
    errors = command.stderr.read().decode()
    command.wait(timeout=60)
    assert "Traceback" not in errors and "BrokenPipeError" not in errors
