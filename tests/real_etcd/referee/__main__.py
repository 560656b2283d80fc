"""python3 -m referee: the command line (cli.py)."""
import sys

from .cli import main

sys.exit(main())
