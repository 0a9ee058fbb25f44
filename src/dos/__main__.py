"""``python -m dos`` runs the ``dos`` command."""

import sys

from dos.cli import main

sys.exit(main())
