"""Every malformed input in the battery (malformed_cases.py) is refused with the
expected exit code and a message that names what is wrong and where: the file,
the line and the key, in the user's words. Also: no case crashes, and the
battery stays large enough to mean something."""
import pathlib
import re

import pytest

from malformed_cases import BASE, CASES, Raw, Replace


def write_case(tmp_path, snippet):
    path = tmp_path / "battery.toml"
    if snippet is None:
        return path
    if isinstance(snippet, Raw):
        data = snippet.text if isinstance(snippet.text, bytes) else snippet.text.encode()
    elif isinstance(snippet, Replace):
        assert snippet.old in BASE, f"the battery's BASE has no {snippet.old!r}"
        data = BASE.replace(snippet.old, snippet.new, 1).encode()
    else:
        data = (BASE + "\n" + snippet).encode()
    path.write_bytes(data)
    return path


def test_the_battery_is_large():
    """At least 200 cases, with unique names."""
    names = [c.name for c in CASES]
    assert len(names) >= 200, len(names)
    assert len(set(names)) == len(names), sorted(n for n in names if names.count(n) > 1)


def fill(args, path, directory):
    return [str(path) if a == "{file}" else a.replace("{dir}", str(directory)) for a in args]


def corrupt(path, old, new):
    """Replaces the first |old| after the header line of |path| (a setup step)."""
    text = pathlib.Path(path).read_text()
    head, rest = text.split("\n", 1)
    pathlib.Path(path).write_text(head + "\n" + rest.replace(old, new, 1))


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_malformed_input(locksim, tmp_path, case):
    path = write_case(tmp_path, case.snippet)
    for name, content in case.files.items():
        (tmp_path / name).write_bytes(content if isinstance(content, bytes) else content.encode())
    for step in case.setup:
        if step[0] == "!corrupt":
            corrupt(*fill(step[1:], path, tmp_path))
            continue
        done = locksim(*fill(step, path, tmp_path))
        assert done.returncode == 0, done.stderr
    if case.rewrite is not None:
        write_case(tmp_path, case.rewrite)
    args = fill(case.args, path, tmp_path)
    result = locksim(*args)
    output = result.stdout if case.code == 0 else result.stderr
    assert result.returncode == case.code, f"exit {result.returncode}\nstdout:\n{result.stdout}\nstderr:\n{result.stderr}"
    assert "internal error" not in result.stderr and "Sanitizer" not in result.stderr, result.stderr
    for fragment in case.fragments:
        assert fragment in output, f"missing {fragment!r} in:\n{output}"
    for fragment in case.absent:
        assert fragment not in output, f"{fragment!r} follows from the real error, in:\n{output}"
    if case.key is not None:
        match = re.search(r"battery\.toml(?::(\d+))?: " + re.escape(case.key) + ": ", output)
        assert match, f"the message does not name battery.toml and {case.key}:\n{output}"
        if match.group(1):
            # The line holds the key, or (for a key that is missing) its table.
            line = path.read_bytes().decode(errors="replace").split("\n")[int(match.group(1)) - 1]
            parts = [p.strip('"') for p in case.key.split(".")]
            wanted = parts[-2] if "missing required key" in output and len(parts) > 1 else parts[-1]
            assert wanted in line, f"line {match.group(1)} is {line!r}, which does not hold {wanted!r}"
