"""`locksim merged`: one variant printed as a standalone scenario runs exactly
as the variant does (the referees under tests/real_* run stories from it)."""
import json
import tomllib

import pytest


def catalogue_variants(locksim, root):
    pairs = []
    for path in sorted((root / "scenarios").glob("*.toml")):
        with open(path, "rb") as f:
            doc = tomllib.load(f)
        pairs += [(path, "base")] + [(path, v) for v in doc.get("variant", {})]
    return pairs


def outcome(result):
    """What a run decided, without the names of the file and the variant. The
    printed file lists tables sorted by name (toml++ prints them so), so the
    faults are compared by name, not by order."""
    variant = json.loads(result.stdout)["variants"][0]
    faults = sorted(variant.get("faults", []), key=lambda f: f["name"])
    return {"verdicts": variant["verdicts"], "liveness": variant.get("liveness"), "clients": variant.get("clients"),
            "faults": faults, "expect": variant.get("expect")}


def test_every_catalogue_variant_runs_the_same_merged(locksim, root, tmp_path):
    pairs = catalogue_variants(locksim, root)
    assert len(pairs) > 80
    for path, variant in pairs:
        printed = locksim("merged", path, "--variant", variant)
        assert printed.returncode == 0, printed.stderr
        doc = tomllib.loads(printed.stdout)
        assert "variant" not in doc
        standalone = tmp_path / f"{path.stem}.{variant}.toml"
        standalone.write_text(printed.stdout)
        direct = locksim("run", path, "--variant", variant, "--json")
        merged = locksim("run", standalone, "--json")
        assert direct.returncode == merged.returncode, (path, variant, merged.stderr)
        assert outcome(direct) == outcome(merged), (path, variant)


def test_extends_unset_and_set_are_followed(locksim, root):
    printed = locksim("merged", "scenarios/redlock-vs-etcd.toml", "--variant", "etcd-gc-pause",
                      "--set", "lock.ttl=7s")
    assert printed.returncode == 0, printed.stderr
    doc = tomllib.loads(printed.stdout)
    assert doc["lock"] == {"protocol": "etcd", "ttl": "7s"}           # unset the Redis keys, --set the TTL
    assert "redis" not in doc and "redlock" not in doc
    assert set(doc["fault"]) == {"leader-clock-jump", "c1-gc-pause"}   # the pause from extends, no Redis fault


def test_a_catalogue_name_is_enough(locksim):
    assert locksim("merged", "single-node-gc-pause", "--variant", "fenced").returncode == 0


@pytest.mark.parametrize("args, says", [
    (["scenarios/single-node-gc-pause.toml", "--variant", "fencd"], "unknown variant \"fencd\""),
    (["scenarios/single-node-gc-pause.toml", "--set", "lock.ttl=banana"], "lock.ttl"),
    (["no-such-scenario"], "no such file"),
    ([], "which scenario file"),
])
def test_bad_input_is_refused(locksim, args, says):
    result = locksim("merged", *args)
    assert result.returncode == 2
    assert says in result.stderr
    assert result.stdout == ""
