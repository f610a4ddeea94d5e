"""`python -m judge.cli`, as the `judge` command."""
import sys

from judge.cli.main import main

sys.exit(main())
