"""A catalogue scenario's variant as a real referee runs it — one reader for
both referees (tests/real_etcd, tests/real_redis).

A referee takes its story from the same file `locksim run` reads, so that a
revised file changes both sides. What a variant means is locksim's to say:
`locksim merged FILE --variant V` prints it as the standalone file it amounts
to (its keys laid over the base, `extends` followed, `unset` applied), and
that is what is read whenever a locksim binary is known. Without one — a
referee judging records offline — a plain variant is laid over the base here
as locksim lays it (a key in [variant.NAME] replaces the base's), and a
composed one (`extends`/`unset`) is refused rather than misread.
"""
import copy
import os
import shutil
import subprocess
import tomllib

_UNITS_NS = {"ns": 1, "us": 1_000, "ms": 1_000_000, "s": 1_000_000_000, "min": 60_000_000_000,
             "h": 3_600_000_000_000}


def duration_ns(text: str) -> int:
    """'10s', '250ms', '-5s', '+15s', '1.5s', '0' → nanoseconds (plain durations only, no distributions)."""
    t = text.strip()
    sign = 1
    if t[:1] in "+-":
        sign = -1 if t[0] == "-" else 1
        t = t[1:]
    if t == "0":
        return 0
    for unit in sorted(_UNITS_NS, key=len, reverse=True):
        if t.endswith(unit):
            number = t[: -len(unit)]
            try:
                value = float(number) if "." in number else int(number)
            except ValueError:
                break
            return sign * int(round(value * _UNITS_NS[unit]))
    raise ValueError(f"not a plain duration: {text!r}")


def variants(path: str) -> list[str]:
    with open(path, "rb") as f:
        doc = tomllib.load(f)
    return ["base"] + list(doc.get("variant", {}).keys())


def _lay_over(base: dict, over: dict) -> None:
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            _lay_over(base[key], value)
        else:
            base[key] = copy.deepcopy(value)


def _locksim(locksim: str | None) -> str | None:
    return locksim or os.environ.get("LOCKSIM_BIN") or shutil.which("locksim")


def read(path: str, variant: str = "base", locksim: str | None = None) -> dict:
    """path's variant as one document (with its merged [expect]); KeyError for
    an unknown variant, ValueError when locksim refuses it or it cannot be read."""
    with open(path, "rb") as f:
        doc = tomllib.load(f)
    if variant != "base" and variant not in doc.get("variant", {}):
        raise KeyError(f"{path} has no variant {variant!r} (variants: {', '.join(variants(path))})")
    binary = _locksim(locksim)
    if binary:
        done = subprocess.run([binary, "merged", path, "--variant", variant], capture_output=True, text=True,
                              timeout=60)
        if done.returncode != 0:
            raise ValueError(f"locksim merged {path} --variant {variant}: {done.stderr.strip()}")
        return tomllib.loads(done.stdout)
    spec = copy.deepcopy({k: v for k, v in doc.items() if k != "variant"})
    if variant != "base":
        var = doc["variant"][variant]
        if "extends" in var or "unset" in var:
            raise ValueError(f"{path}: variant {variant} uses extends/unset: give the referee a locksim binary "
                             "(--locksim or LOCKSIM_BIN), whose `locksim merged` resolves it")
        _lay_over(spec, {k: v for k, v in var.items() if k != "description"})
    return spec
