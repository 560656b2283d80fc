"""locksim sweep over several variants (--variant A --variant B, --all-variants): one CSV and one per-run file whose
rows name their own variant, each variant's rows the ones its own sweep writes, one manifest that lists every
variant with its own [expect], --resume and shards as for one variant, and a variant named twice refused."""
import csv
import io
import json

SCENARIO = "scenarios/redlock-clock-drift.toml"  # base and fast-0.5pct: the same faults and clients
VARY = ["--vary", "clock.C.drift=1%,2%", "--set", "network.latency=uniform(500us, 2ms)", "--seeds", "6"]
COMPOSED = "scenarios/redlock-vs-etcd.toml"  # Redlock, and etcd variants that drop its faults and add their own


def ok(result):
    assert result.returncode == 0, result.stdout + result.stderr
    # Only the size and progress lines a sweep writes on stderr.
    assert all(line.startswith("locksim sweep: ") for line in result.stderr.splitlines()), result.stderr
    return result


def rows(path):
    return list(csv.DictReader(io.StringIO(path.read_text())))


def body(path):
    """The lines after the header."""
    return path.read_text().splitlines(keepends=True)[1:]


def test_each_variants_rows_are_its_own_sweeps(locksim, tmp_path):
    """Rows come variant by variant, in the order given, and equal (summary and per-run) what each variant's own
    sweep writes: same seeds, same numbers, the variant column naming it."""
    ok(locksim("sweep", SCENARIO, *VARY, "--variant", "fast-0.5pct", "--variant", "base",
               "--out", tmp_path / "both.csv", "--per-run", tmp_path / "both.runs.csv"))
    alone = {}
    for variant in ("fast-0.5pct", "base"):
        ok(locksim("sweep", SCENARIO, *VARY, "--variant", variant, "--out", tmp_path / f"{variant}.csv",
                   "--per-run", tmp_path / f"{variant}.runs.csv"))
        alone[variant] = (body(tmp_path / f"{variant}.csv"), body(tmp_path / f"{variant}.runs.csv"))
    both = tmp_path / "both.csv"
    assert both.read_text().splitlines()[0] == (tmp_path / "base.csv").read_text().splitlines()[0]
    assert body(both) == alone["fast-0.5pct"][0] + alone["base"][0]
    assert body(tmp_path / "both.runs.csv") == alone["fast-0.5pct"][1] + alone["base"][1]
    assert [(r["variant"], r["clock.C.drift"]) for r in rows(both)] == [
        ("fast-0.5pct", "1%"), ("fast-0.5pct", "2%"), ("base", "1%"), ("base", "2%")]


def test_all_variants_one_manifest_with_each_variants_expectations(locksim, tmp_path):
    """--all-variants sweeps the file's variants in file order; the manifest lists them, counts every row as a cell
    and records each variant's own [expect]; the fault columns are the union of the variants' faults."""
    out = tmp_path / "all.csv"
    ok(locksim("sweep", COMPOSED, "--all-variants", "--vary", "lock.ttl=10s,20s", "--seeds", "2", "--out", out))
    variants = ["base", "tuned", "tuned-gc-pause", "etcd", "etcd-gc-pause"]
    table = rows(out)
    assert [r["variant"] for r in table] == [v for v in variants for _ in range(2)]
    manifest = json.loads((tmp_path / "all.csv.json").read_text())
    assert manifest["variants"] == variants and manifest["cells"] == 10
    assert manifest["faults"] == ["c1-cut-from-D-E", "c2-cut-from-A-B", "C-wall-clock-jump", "c1-gc-pause",
                                  "leader-clock-jump"]
    assert list(manifest["expect"]) == variants
    assert manifest["expect"]["base"]["grant-exclusive"] == "violated"
    assert manifest["expect"]["etcd"]["grant-exclusive"] == "holds"
    assert manifest["expect"]["etcd-gc-pause"]["belief-exclusive"] == "violated"
    # A fault a variant lacks leaves its column empty in that variant's rows.
    by = {(r["variant"], r["lock.ttl"]): r for r in table}
    assert by[("etcd", "10s")]["fault.C-wall-clock-jump.fired"] == ""
    assert by[("etcd", "10s")]["fault.leader-clock-jump.fired"] == "1.000000"
    assert by[("base", "10s")]["fault.leader-clock-jump.fired"] == ""
    # Each row as its own variant's [expect] says, at the story's 10 s TTL.
    for variant in variants:
        for prop, verdict in manifest["expect"][variant].items():
            broke = int(by[(variant, "10s")][f"{prop}.violated"]) > 0
            assert broke == (verdict == "violated"), (variant, prop)


def test_resume_and_shards_of_several_variants(locksim, tmp_path):
    """A multi-variant sweep cut off part-way (in the second variant's block) resumes to the whole files; three
    shards, split across the variants' blocks, join to them too."""
    args = [SCENARIO, *VARY, "--all-variants"]
    whole, whole_runs = tmp_path / "whole.csv", tmp_path / "whole.runs.csv"
    ok(locksim("sweep", *args, "--out", whole, "--per-run", whole_runs))
    out, runs = tmp_path / "cut.csv", tmp_path / "cut.runs.csv"
    ok(locksim("sweep", *args, "--out", out, "--per-run", runs))
    out.write_text("".join(out.read_text().splitlines(keepends=True)[:4]))  # header, base's 2 cells, 1 of fast's
    lines = runs.read_text().splitlines(keepends=True)
    runs.write_text("".join(lines[:1 + 3 * 6 + 2]) + lines[21][:9])  # the 3 cells' runs, 2 more, half a line
    ok(locksim("sweep", *args, "--threads", "2", "--out", out, "--per-run", runs, "--resume"))
    assert out.read_bytes() == whole.read_bytes() and runs.read_bytes() == whole_runs.read_bytes()
    for k in (1, 2, 3):
        ok(locksim("sweep", *args, "--shard", f"{k}/3", "--out", tmp_path / f"s{k}.csv"))
    assert b"".join((tmp_path / f"s{k}.csv").read_bytes() for k in (1, 2, 3)) == whole.read_bytes()


def test_resume_with_other_variants_is_refused(locksim, tmp_path):
    """--resume with another list of variants names both lists and changes nothing."""
    out = tmp_path / "s.csv"
    ok(locksim("sweep", SCENARIO, *VARY, "--all-variants", "--out", out))
    before = out.read_bytes()
    result = locksim("sweep", SCENARIO, *VARY, "--variant", "base", "--out", out, "--resume")
    assert result.returncode == 2
    assert "--variant differs: the file has base fast-0.5pct, this command has base" in result.stderr
    assert out.read_bytes() == before


def test_a_variant_named_twice_or_with_all_variants_is_refused(locksim, tmp_path):
    """Naming a variant twice, or --variant with --all-variants, exits 2 before anything is written."""
    for extra, message in [
        (["--variant", "base", "--variant", "fast-0.5pct", "--variant", "base"],
         "--variant base is given twice; name each variant once"),
        (["--all-variants", "--variant", "base"], "--all-variants and --variant are exclusive"),
        (["--variant", "fast-0.5pc"], 'unknown variant "fast-0.5pc" (did you mean "fast-0.5pct"?)'),
    ]:
        result = locksim("sweep", SCENARIO, *VARY, *extra, "--out", tmp_path / "s.csv")
        assert result.returncode == 2 and message in result.stderr, result.stderr
        assert not (tmp_path / "s.csv").exists()


def test_a_value_that_fails_in_one_variant_names_it(locksim):
    """A swept value that only one variant refuses is reported before anything runs, naming that variant."""
    result = locksim("sweep", COMPOSED, "--variant", "tuned", "--variant", "etcd",
                     "--vary", "redlock.node_timeout=10ms", "--seeds", "1")
    assert result.returncode == 2
    assert result.stderr.startswith("locksim sweep: --vary: redlock.node_timeout: ")
    assert result.stderr.rstrip().endswith('(in variant "etcd")'), result.stderr
