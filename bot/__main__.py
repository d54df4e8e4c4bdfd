"""`python -m bot` is the same as the `jongg` command."""

import sys

from bot.cli.main import main

sys.exit(main())
