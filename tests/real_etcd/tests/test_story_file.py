"""The referees' scenario reader (tests/real_common/story_file.py): a variant
means to a real run what it means to locksim — composed variants included."""
import os
import textwrap

import pytest
import story_file

SCENARIOS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))), "scenarios")
STORY = os.path.join(SCENARIOS, "redlock-vs-etcd.toml")


def test_a_composed_variant_is_read_through_locksim_merged():
    spec = story_file.read(STORY, "etcd-gc-pause", os.environ["LOCKSIM_BIN"])
    assert spec["lock"]["protocol"] == "etcd" and "redis" not in spec      # unset
    assert set(spec["fault"]) == {"leader-clock-jump", "c1-gc-pause"}     # extends etcd, adds the pause
    assert spec["expect"]["grant-exclusive"] == "holds"


def test_without_locksim_a_composed_variant_is_refused_not_misread(monkeypatch):
    monkeypatch.delenv("LOCKSIM_BIN", raising=False)
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(ValueError, match="extends/unset"):
        story_file.read(STORY, "etcd-gc-pause")


def test_a_plain_variant_reads_the_same_with_and_without_locksim(monkeypatch, tmp_path):
    path = tmp_path / "s.toml"
    path.write_text(textwrap.dedent("""\
        [scenario]
        name = "s"
        [lock]
        protocol = "etcd"
        ttl = "10s"
        [client.c1]
        steps = ["write"]
        [fault.p]
        kind = "pause"
        target = "c1"
        at = "1s"
        length = "15s"
        [expect]
        grant-exclusive = "holds"
        [variant.longer]
        description = "a longer pause"
        fault.p.length = "20s"
        [variant.longer.expect]
        belief-exclusive = "violated"
        """))
    with_locksim = story_file.read(str(path), "longer", os.environ["LOCKSIM_BIN"])
    monkeypatch.delenv("LOCKSIM_BIN", raising=False)
    monkeypatch.setenv("PATH", "/nonexistent")
    without = story_file.read(str(path), "longer")
    assert with_locksim == without
    assert without["fault"]["p"]["length"] == "20s"
    assert without["expect"] == {"grant-exclusive": "holds", "belief-exclusive": "violated"}


def test_an_unknown_variant_names_the_known_ones():
    with pytest.raises(KeyError, match="etcd-gc-pause"):
        story_file.read(STORY, "etcd-gc")
