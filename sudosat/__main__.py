"""``python -m sudosat`` runs the command line."""

import sys

from sudosat.cli import main

sys.exit(main())
