"""``python -m sudosat.cli`` runs the command line, as ``python -m sudosat`` does."""

import sys

from sudosat.cli import main

sys.exit(main())
