"""An analysis command run by a Python without matplotlib or pandas exits 2 with one line that says what to install.

Each command is run in a subprocess of this interpreter with the libraries hidden (``sys.modules[name] = None``
makes ``import name`` fail as if it were not installed), and once with the ``python3`` first on PATH when that
one really lacks matplotlib (a pyenv or virtualenv interpreter, as on the development machine).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# The command-line entry points: every module of analysis/ with a __main__ block.
COMMANDS = ["timeline", "timeline_html", "timelines_of_runs", "sweep_plots", "report", "compare_plot", "efficiency_plot"]
# Commands that need neither library (none yet) would be listed here instead.
NEEDS_NEITHER: set[str] = set()

HINT = "apt-get install python3-matplotlib python3-pandas and run it with /usr/bin/python3"


def run_hiding(command: str, hidden: list[str], *args: str, python: str = sys.executable,
               as_command: bool = True) -> subprocess.CompletedProcess:
    """Runs analysis/COMMAND.py as a command (or imports it as a module) with |hidden| made unimportable."""
    script = ROOT / "analysis" / f"{command}.py"
    body = f"runpy.run_path({str(script)!r}, run_name='__main__')" if as_command else f"import analysis.{command}"
    code = "\n".join([
        "import runpy, sys",
        f"sys.path.insert(0, {str(ROOT)!r})",
        *(f"sys.modules[{name!r}] = None" for name in hidden),
        f"sys.argv = [{str(script)!r}, *{list(args)!r}]",
        body,
    ])
    return subprocess.run([python, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("command", COMMANDS)
def test_a_command_without_the_libraries_says_what_to_install(command, tmp_path):
    result = run_hiding(command, ["matplotlib", "pandas"], "in.jsonl", "--out", str(tmp_path / "out.png"))
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr  # one line, no traceback
    assert lines[0].startswith(f"{command}: locksim analysis needs matplotlib and pandas, which this Python (")
    assert f"({sys.executable})" in lines[0]
    assert HINT in lines[0]
    assert not (tmp_path / "out.png").exists()


def test_one_missing_library_is_named():
    result = run_hiding("timeline", ["pandas"], "in.jsonl", "--out", "x.png")
    assert result.returncode == 2
    assert f"needs matplotlib and pandas, and this Python ({sys.executable}) lacks pandas:" in result.stderr
    assert "Traceback" not in result.stderr


def test_imported_as_a_module_a_missing_library_stays_an_import_error():
    # A program that imports the plots as a library handles the ImportError itself; only commands exit.
    result = run_hiding("timeline", ["matplotlib"], as_command=False)
    assert result.returncode == 1
    assert "ModuleNotFoundError" in result.stderr and "locksim analysis needs" not in result.stderr


def test_with_the_libraries_the_check_is_silent():
    result = subprocess.run([sys.executable, str(ROOT / "analysis" / "timeline.py"), "--help"], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "locksim analysis needs" not in result.stderr


def test_the_python3_on_path_when_it_lacks_matplotlib():
    python = shutil.which("python3")
    if python is None:
        pytest.skip("no python3 on PATH")
    probe = subprocess.run([python, "-c", "import matplotlib"], capture_output=True, timeout=60)
    if probe.returncode == 0:
        pytest.skip(f"{python} has matplotlib")
    result = subprocess.run([python, "analysis/timeline.py", "trace.jsonl", "--out", "x.png"], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert re.fullmatch(r"timeline: locksim analysis needs matplotlib and pandas, .*\n", result.stderr)
    assert HINT in result.stderr


def test_every_command_checks_before_it_imports():
    # A new command (a module with a __main__ block) must call the check before its first third-party import,
    # or say here that it needs neither library.
    commands = sorted(p.stem for p in (ROOT / "analysis").glob("*.py")
                      if re.search(r'^if __name__ == "__main__":', p.read_text(encoding="utf-8"), re.M))
    assert sorted(set(COMMANDS) | NEEDS_NEITHER) == commands
    for command in COMMANDS:
        text = (ROOT / "analysis" / f"{command}.py").read_text(encoding="utf-8")
        check = text.find(f'exit_if_missing("{command}")')
        first_import = min(i for i in (text.find("\nimport matplotlib"), text.find("\nfrom matplotlib"),
                                       text.find("\nfrom analysis import"), text.find("\nimport numpy"))
                           if i >= 0)
        assert 0 <= check < first_import, f"analysis/{command}.py: call exit_if_missing before the imports"
