"""What the analysis commands need installed, and the one line they print when this Python lacks it.

The plots and reports import matplotlib and pandas at the top of their modules. Run with an
interpreter that has neither (a pyenv or virtualenv ``python3`` that comes first on PATH, say),
the first sign was a traceback from deep inside ``analysis.trace``; the user then had to work out
that the command wanted Debian's ``/usr/bin/python3``. Each command-line entry point calls
``exit_if_missing`` before those imports instead, and a missing library becomes one line on
stderr that says what to install, with exit status 2 (bad environment, as for bad input).

Only the commands call it: a program that imports the modules as a library gets the ordinary
ImportError, which is its own to handle. ``pip install ./analysis`` installs the same libraries
(``analysis/pyproject.toml`` declares them).
"""

from __future__ import annotations

import importlib
import sys
from typing import Sequence

# What every plotting command imports (numpy comes with both).
NEEDED = ("matplotlib", "pandas")

EXIT_MISSING = 2


def missing(modules: Sequence[str] = NEEDED) -> list[str]:
    """The modules of |modules| this interpreter cannot import, in order.

    Importing (rather than only finding) the module also catches an installation that is present
    but broken; the commands import these right after anyway, so it costs nothing extra.
    """
    absent = []
    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError:
            absent.append(name)
    return absent


def message(program: str, absent: Sequence[str]) -> str:
    """The one line that says what to install, e.g. for ``timeline`` lacking both libraries."""
    needed = " and ".join(NEEDED)
    where = f"this Python ({sys.executable or 'python3'})"
    lacks = f"which {where} lacks" if list(absent) == list(NEEDED) else f"and {where} lacks {' and '.join(absent)}"
    return (f"{program}: locksim analysis needs {needed}, {lacks}: on Debian, "
            f"apt-get install python3-matplotlib python3-pandas and run it with /usr/bin/python3 "
            f"(elsewhere: pip install ./analysis)")


def exit_if_missing(program: str) -> None:
    """Exits with status 2 and one line on stderr when matplotlib or pandas cannot be imported."""
    absent = missing()
    if absent:
        print(message(program, absent), file=sys.stderr)
        sys.exit(EXIT_MISSING)
