"""The argument parser every analysis command uses: a usage error is one line on stderr and exit status 2, the
same as every other kind of bad input the commands refuse (never argparse's usage block and status 2 on one
command, a traceback on another)."""

from __future__ import annotations

import argparse
from typing import Optional


class OneLineParser(argparse.ArgumentParser):
    def __init__(self, *args, name: Optional[str] = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.name = name or self.prog  # what the error line starts with

    def error(self, message: str):
        self.exit(2, f"{self.name}: {message} (see --help)\n")
