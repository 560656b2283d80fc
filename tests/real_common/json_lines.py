"""A referee's processes write their records as JSON lines; this reads them."""
import json


def records(stream, who: str, problems: list):
    """Each line of |stream| as a dict. A line that is not JSON is noted in |problems|, naming |who|, and
    skipped: one garbled line must not end the reading of a process's records."""
    for line in stream:
        try:
            yield json.loads(line)
        except json.JSONDecodeError:
            problems.append(f"{who}: not JSON: {line.strip()[:200]}")
