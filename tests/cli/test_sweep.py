"""locksim sweep as a user meets it: byte-identical CSVs for any thread count and
shard split, resume after a kill, per-run rows, manifests that --resume checks,
and exit 2 for bad input."""
import json
import os
import shutil
import pathlib
import re
import signal
import subprocess
import time

import pytest

SCENARIO = "scenarios/redlock-clock-drift.toml"
# Random latencies make the seeds matter; the drifts straddle the ~1.17 % threshold.
SMALL = [SCENARIO, "--vary", "clock.C.drift=0.5%..2%:0.5%", "--set", "network.latency=uniform(500us, 2ms)",
         "--seeds", "20"]
PROPERTIES = ["grant-exclusive", "belief-exclusive", "resource-exclusive", "resource-current", "invariant"]


def sweep(locksim, *args):
    return locksim("sweep", *args)


def ok(result):
    assert result.returncode == 0, result.stdout + result.stderr
    # Outside a terminal: the sweep's size, then (past its first second) plain progress lines, nothing else.
    lines = result.stderr.splitlines()
    assert re.fullmatch(r"locksim sweep: (.* seeds = \d+ runs.* on \d+ threads?|.*: nothing to run)", lines[0]), \
        result.stderr
    assert all(line.startswith("locksim sweep: ") for line in lines), result.stderr
    assert "\r" not in result.stderr and "\x1b" not in result.stderr, "no terminal controls in a log"
    return result


def test_threads_do_not_change_the_bytes(locksim, tmp_path):
    """--threads 1 and --threads 2 write identical summary and per-run files."""
    for t in ("1", "2"):
        ok(sweep(locksim, *SMALL, "--threads", t, "--out", tmp_path / f"t{t}.csv", "--per-run", tmp_path / f"r{t}.csv"))
    assert (tmp_path / "t1.csv").read_bytes() == (tmp_path / "t2.csv").read_bytes()
    assert (tmp_path / "r1.csv").read_bytes() == (tmp_path / "r2.csv").read_bytes()


def test_summary_columns_and_values(locksim, tmp_path):
    """The header has the documented columns; one row per cell with canonical values and the run count."""
    out = tmp_path / "s.csv"
    ok(sweep(locksim, *SMALL, "--out", out))
    lines = out.read_text().splitlines()
    header = lines[0].split(",")
    assert header[:4] == ["scenario", "variant", "clock.C.drift", "runs"]
    expected = []
    for p in PROPERTIES:
        expected += [f"{p}.violated", f"{p}.rate", f"{p}.ci_low", f"{p}.ci_high"]
    expected += ["sessions.mean", "acquire_attempts.mean", "acquire_ok_rate.mean", "acquire_latency_ms.mean",
                 "longest_stuck_ms.mean", "unheld_ms.mean", "expired_grants.mean",
                 "commits.mean", "rollbacks.mean", "wasted_ms.mean", "committed_per_s.mean"]
    # Format 2: the first violating seed per property, each fault's firing rate, per-client figures, and the swept
    # value in base units (redlock-clock-drift has two partitions and clients c1 and c2).
    expected += [f"{p}.first_seed" for p in PROPERTIES]
    expected += ["fault.c1-cut-from-D-E.fired", "fault.c2-cut-from-A-B.fired"]
    for c in ("c1", "c2"):
        expected += [f"{c}.sessions.mean", f"{c}.ops_accepted.mean", f"{c}.ops_rejected.mean",
                     f"{c}.releases_failed.mean", f"{c}.longest_wait_ms.mean", f"{c}.longest_wait_ms.max"]
    expected += ["clock.C.drift_ppm"]
    assert header[4:] == expected
    rows = [line.split(",") for line in lines[1:]]
    assert [r[2] for r in rows] == ["0.5%", "1%", "1.5%", "2%"]
    assert all(r[0] == "redlock-clock-drift" and r[1] == "base" and r[3] == "20" for r in rows)
    assert all(len(r) == len(header) for r in rows)
    # 0.5 % fast is inside the drift allowance; 2 % is far outside it.
    assert rows[0][4] == "0" and rows[0][7] == "0.161125"  # 0 of 20: Wilson upper bound
    assert rows[-1][4] == "20" and rows[-1][5] == "1.000000"
    column = {name: i for i, name in enumerate(header)}
    assert [r[column["clock.C.drift_ppm"]] for r in rows] == ["5000", "10000", "15000", "20000"]
    assert rows[0][column["grant-exclusive.first_seed"]] == ""  # nothing to replay
    assert rows[-1][column["grant-exclusive.first_seed"]].isdigit()
    assert all(r[column["fault.c1-cut-from-D-E.fired"]] == "1.000000" for r in rows)


def test_stdout_when_no_out(locksim):
    """Without --out the CSV goes to standard output."""
    result = ok(sweep(locksim, *SMALL))
    assert result.stdout.startswith("scenario,variant,clock.C.drift,runs,")
    assert len(result.stdout.splitlines()) == 5


def test_three_shards_concatenate_to_the_unsharded_file(locksim, tmp_path):
    """cat shard1 shard2 shard3 == the unsharded file, for the summary and per-run files."""
    ok(sweep(locksim, *SMALL, "--out", tmp_path / "all.csv", "--per-run", tmp_path / "all.runs.csv"))
    for k in (1, 2, 3):
        ok(sweep(locksim, *SMALL, "--shard", f"{k}/3", "--threads", "1" if k == 2 else "2",
                 "--out", tmp_path / f"s{k}.csv", "--per-run", tmp_path / f"s{k}.runs.csv"))
    for suffix in (".csv", ".runs.csv"):
        joined = b"".join((tmp_path / f"s{k}{suffix}").read_bytes() for k in (1, 2, 3))
        assert joined == (tmp_path / f"all{suffix}").read_bytes()
    assert not (tmp_path / "s2.csv").read_text().startswith("scenario,"), "only shard 1 writes the header"


def test_per_run_rows_are_cells_times_seeds(locksim, tmp_path):
    """--per-run writes one row per run: cells x seeds, with replica, seed, 0/1 verdicts and witness times."""
    runs = tmp_path / "runs.csv"
    ok(sweep(locksim, SCENARIO, "--vary", "clock.C.drift=0.5%..2%:0.5%", "--vary", "lock.ttl=5s,10s",
             "--seeds", "7", "--per-run", runs, "--out", tmp_path / "s.csv"))
    lines = runs.read_text().splitlines()
    assert lines[0].startswith("scenario,variant,clock.C.drift,lock.ttl,replica,seed,grant-exclusive.violated,")
    assert lines[0].endswith(",invariant.first_witness_ms,sessions,longest_stuck_ms,fault.c1-cut-from-D-E.fired,"
                             "fault.c2-cut-from-A-B.fired,c1.longest_wait_ms,c2.longest_wait_ms,clock.C.drift_ppm,lock.ttl_s")
    assert len(lines) - 1 == 4 * 2 * 7
    row = lines[-1].split(",")
    assert row[2:5] == ["2%", "10s", "6"]  # first --vary outermost: the last cell is the last of both axes
    assert row[6] == "1" and row[11] != "", "P1 breaks at 2 % and has a witness time"
    assert len(set(line.split(",")[5] for line in lines[1:])) == 56, "every run has its own seed"


def test_a_per_run_seed_reproduces_with_locksim_run(locksim, tmp_path):
    """A per-run row's seed, with the cell's values as --set, reproduces the run's verdicts with locksim run."""
    runs = tmp_path / "runs.csv"
    ok(sweep(locksim, *SMALL, "--per-run", runs, "--out", tmp_path / "s.csv"))
    row = runs.read_text().splitlines()[-1].split(",")
    result = locksim("run", SCENARIO, "--variant", "base", "--seed", row[4], "--set", f"clock.C.drift={row[2]}",
                     "--set", "network.latency=uniform(500us, 2ms)", "--json")
    import json
    verdicts = json.loads(result.stdout)["variants"][0]["verdicts"]
    for i, p in enumerate(PROPERTIES):
        assert (verdicts[p]["status"] == "violated") == (row[5 + i] == "1"), p


def test_grid_gives_the_same_rows_as_vary(locksim, tmp_path):
    """A grid file listing the cells of a --vary sweep writes the same file (cells, not their source, set the seeds)."""
    grid = tmp_path / "grid.csv"
    grid.write_text("clock.C.drift\n0.5%\n1%\n1.50%\n20000ppm\n")
    ok(sweep(locksim, *SMALL, "--out", tmp_path / "vary.csv"))
    args = [SCENARIO, "--grid", grid, "--set", "network.latency=uniform(500us, 2ms)", "--seeds", "20"]
    ok(sweep(locksim, *args, "--out", tmp_path / "grid.out.csv"))
    vary = (tmp_path / "vary.csv").read_text().splitlines()
    from_grid = (tmp_path / "grid.out.csv").read_text().splitlines()
    assert from_grid[:4] == vary[:4]
    assert from_grid[4].split(",")[2] == "20000ppm"  # lists keep their unit


def test_resume_after_a_kill_equals_an_uninterrupted_sweep(locksim, tmp_path):
    """Kill a sweep once rows are on disk, --resume it, and get the uninterrupted files byte for byte."""
    args = [SCENARIO, "--vary", "clock.C.drift=1%..1.6%:0.02%", "--set", "network.latency=uniform(500us, 2ms)",
            "--seeds", "150", "--threads", "1"]
    out, runs = tmp_path / "killed.csv", tmp_path / "killed.runs.csv"
    proc = subprocess.Popen([locksim.binary, "sweep", *map(str, args), "--out", out, "--per-run", runs],
                            cwd=locksim_root(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if out.exists() and out.read_text().count("\n") >= 3:  # header + 2 cells
            break
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    killed_rows = out.read_text().count("\n") - 1
    assert 2 <= killed_rows < 31, "the sweep was killed part-way"

    ok(sweep(locksim, *args, "--out", out, "--per-run", runs, "--resume"))
    ok(sweep(locksim, *args[:-2], "--threads", "2", "--out", tmp_path / "whole.csv",
             "--per-run", tmp_path / "whole.runs.csv"))
    assert out.read_bytes() == (tmp_path / "whole.csv").read_bytes()
    assert runs.read_bytes() == (tmp_path / "whole.runs.csv").read_bytes()


def test_ctrl_c_says_how_to_go_on_and_resume_does(locksim, tmp_path):
    """Ctrl-C (SIGINT) stops a sweep as an interrupted process, after one line naming the file that holds the
    finished rows and --resume; the resumed sweep ends with every row."""
    args = [SCENARIO, "--vary", "clock.C.drift=1%..1.6%:0.02%", "--set", "network.latency=uniform(500us, 2ms)",
            "--seeds", "150", "--threads", "1"]
    out = tmp_path / "stopped.csv"
    proc = subprocess.Popen([locksim.binary, "sweep", *map(str, args), "--out", out], cwd=locksim_root(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (out.exists() and out.read_text().count("\n") >= 3):
        time.sleep(0.01)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate()
    assert proc.returncode == -signal.SIGINT, err
    assert err.endswith(f"locksim sweep: interrupted; the rows finished so far are in {out}: run the same command "
                        "with --resume to go on from there\n"), err
    assert out.read_text().count("\n") - 1 < 31, "the sweep was stopped part-way"
    ok(sweep(locksim, *args, "--out", out, "--resume"))
    assert out.read_text().count("\n") - 1 == 31


def test_resume_drops_a_partial_last_line(locksim, tmp_path):
    """A last line without a newline (a write cut short) is cut off and its cell run again."""
    ok(sweep(locksim, *SMALL, "--out", tmp_path / "whole.csv"))
    whole = (tmp_path / "whole.csv").read_bytes()
    cut = tmp_path / "cut.csv"
    cut.write_bytes(whole[: whole.index(b"\n", whole.index(b"\n") + 1) + 30])
    (tmp_path / "cut.csv.json").write_bytes((tmp_path / "whole.csv.json").read_bytes())
    ok(sweep(locksim, *SMALL, "--out", cut, "--resume"))
    assert cut.read_bytes() == whole


def test_resume_refuses_a_different_sweeps_file(locksim, tmp_path):
    """--resume on a file written with other cells or seeds exits 2 and leaves the file alone."""
    out = tmp_path / "s.csv"
    ok(sweep(locksim, *SMALL, "--out", out))
    before = out.read_bytes()
    result = sweep(locksim, SCENARIO, "--vary", "clock.C.drift=0.5%..2%:0.25%", "--seeds", "20", "--out", out,
                   "--resume")
    assert result.returncode == 2
    assert "--resume" in result.stderr and "different sweep" in result.stderr
    assert out.read_bytes() == before


@pytest.mark.parametrize("args, message", [
    (["--vary", "clock.C.drift=2%..0.5%:0.5%"], "empty"),
    (["--vary", "clock.C.drift=0.5%..2%:0%"], "step must be greater than zero"),
    (["--vary", "lock.ttl=1ms..10s*1"], "factor must be greater than 1"),
    (["--vary", "clock.C.drift=0.5%..2%"], "needs a step"),
    (["--vary", "clock.C.drift"], "KEY=SPEC"),
    (["--vary", "clock.C.drift=fast"], "--vary: clock.C.drift: bad rate"),
    (["--vary", "lock.tll=1s,2s"], "--vary: lock.tll: unknown key (did you mean \"lock.ttl\"?)"),
    (["--shard", "0/3", "--vary", "lock.ttl=1s"], "--shard expects K/N"),
    (["--shard", "4/3", "--vary", "lock.ttl=1s"], "--shard expects K/N"),
    (["--shard", "x", "--vary", "lock.ttl=1s"], "--shard expects K/N"),
    (["--grid", "/nonexistent/grid.csv"], "cannot read grid file"),
    (["--grid", "GRID", "--vary", "lock.ttl=1s"], "exclusive"),
    (["--vary", "lock.ttl=1s", "--threads", "0"], "--threads must be a whole number from 1 to 256, got '0'"),
    (["--vary", "lock.ttl=1s", "--threads", "-1"], "--threads must be a whole number from 1 to 256, got '-1'"),
    (["--vary", "lock.ttl=1s", "--threads", "1e8"], "--threads must be a whole number from 1 to 256, got '1e8'"),
    (["--vary", "lock.ttl=1s", "--threads", "257"], "--threads must be a whole number from 1 to 256, got '257'"),
    (["--vary", "lock.ttl=1s", "--seeds", "-1"], "--seeds must be a whole number from 1 to 1000000000, got '-1'"),
    (["--vary", "lock.ttl=1s", "--seeds=-1"], "--seeds must be a whole number from 1 to 1000000000, got '-1'"),
    (["--vary", "lock.ttl=1s", "--seeds", "0"], "--seeds must be a whole number from 1 to 1000000000, got '0'"),
    (["--vary", "lock.ttl=1s", "--seeds", "1e8"], "--seeds must be a whole number from 1 to 1000000000, got '1e8'"),
    (["--vary", "lock.ttl=1s", "--seeds", "1000000001"], "--seeds must be a whole number from 1 to 1000000000"),
    (["--shard", "1/0", "--vary", "lock.ttl=1s"], "--shard expects K/N with 1 <= K <= N <= 1000000, such as 2/4, got '1/0'"),
    (["--shard", "1/2000000", "--vary", "lock.ttl=1s"], "got '1/2000000'"),
    (["--shard", "1/2/3", "--vary", "lock.ttl=1s"], "--shard expects K/N"),
    (["--vary", "lock.ttl=1ns..2562047h*1000000000000000000"], "--vary: lock.ttl: bad factor"),
    (["--vary", "lock.ttl=1ns..1000s:1ns"], "--vary: lock.ttl: range '1ns..1000s:1ns' has more than 1000000 values"),
    (["--vary", "a=1..1000000:1", "--vary", "b=1..1000000:1"], "the --vary axes make more than 1000000000 cells"),
    (["--vary", "lock.ttl=1s", "--resume"], "--resume needs --out"),
])
def test_bad_input_exits_2_with_a_message(locksim, tmp_path, args, message):
    """Bad SPECs, keys, values, shards and grids exit 2 before anything runs, with a one-line message."""
    args = [str(tmp_path / "grid.csv") if a == "GRID" else a for a in args]
    (tmp_path / "grid.csv").write_text("lock.ttl\n1s\n")
    args = ["--seeds", "3", *args] if not any(a.startswith("--seeds") for a in args) else args
    result = sweep(locksim, SCENARIO, *args)
    assert result.returncode == 2, result.stdout + result.stderr
    assert message in result.stderr
    assert result.stderr.startswith("locksim sweep: ") and result.stderr.count("\n") == 1
    assert result.stdout == ""


def test_bad_grids_name_the_file_and_line(locksim, tmp_path):
    """A ragged row or a bad value in a grid names the grid file and its line; more than 8 columns is an error."""
    ragged = tmp_path / "ragged.csv"
    ragged.write_text("lock.ttl,clock.C.drift\n10s,1%\n10s\n")
    result = sweep(locksim, SCENARIO, "--grid", ragged, "--seeds", "3")
    assert result.returncode == 2 and f"{ragged}:3: this row has fewer values" in result.stderr
    bad_value = tmp_path / "bad.csv"
    bad_value.write_text("lock.ttl,clock.C.drift\n10s,1%\n10s,fast\n")
    result = sweep(locksim, SCENARIO, "--grid", bad_value, "--seeds", "3")
    assert result.returncode == 2 and f"{bad_value}:3: clock.C.drift: bad rate" in result.stderr
    wide = tmp_path / "wide.csv"
    wide.write_text(",".join(f"k{i}" for i in range(9)) + "\n" + ",".join("1" * 9) + "\n")
    result = sweep(locksim, SCENARIO, "--grid", wide, "--seeds", "3")
    assert result.returncode == 2 and "at most 8 keys" in result.stderr


def test_missing_seeds_and_help(locksim):
    """--seeds is required; --help describes the SPEC forms."""
    result = sweep(locksim, SCENARIO, "--vary", "lock.ttl=1s")
    assert result.returncode == 2 and "--seeds" in result.stderr
    help_text = sweep(locksim, "--help")
    assert help_text.returncode == 0 and "1ms..10s*10" in help_text.stdout and "--shard" in help_text.stdout


def locksim_root():
    return pathlib.Path(__file__).resolve().parents[2]


def test_progress_bar_only_on_a_terminal(locksim, tmp_path):
    """With stderr on a terminal the sweep draws a progress bar (cells, runs/s, ETA); the CSV is unchanged."""
    import pty
    leader, follower = pty.openpty()
    try:
        result = subprocess.run([locksim.binary, "sweep", *map(str, SMALL), "--out", tmp_path / "tty.csv"],
                                cwd=locksim_root(), stdout=subprocess.DEVNULL, stderr=follower, timeout=120)
        os.close(follower)
        follower = None
        drawn = b""
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:
                break
            if not chunk:
                break
            drawn += chunk
    finally:
        if follower is not None:
            os.close(follower)
        os.close(leader)
    assert result.returncode == 0
    text = drawn.decode()
    assert text.startswith("locksim sweep: 4 cells × 20 seeds = 80 runs on "), text
    assert "4/4 cells  80/80 runs" in text and "runs/s" in text and "ETA" in text and "\r" in text
    ok(sweep(locksim, *SMALL, "--out", tmp_path / "plain.csv"))
    assert (tmp_path / "tty.csv").read_bytes() == (tmp_path / "plain.csv").read_bytes()


def test_a_sweep_in_a_log_says_its_size_and_estimate(locksim, tmp_path):
    """Without a terminal a long sweep states its size at once, an estimate once its first second is timed, and
    how it ended: plain lines on stderr, so a batch job's log shows it alive; the CSV is the same as ever."""
    started = time.monotonic()
    result = sweep(locksim, SCENARIO, "--vary", "clock.C.drift=0.5%..2%:0.25%", "--seeds", "2000", "--threads", "1",
                   "--out", tmp_path / "log.csv")
    ok(result)
    lines = result.stderr.splitlines()
    assert lines[0] == "locksim sweep: 7 cells × 2000 seeds = 14000 runs on 1 thread"
    if time.monotonic() - started > 1.5:  # a machine fast enough to finish within the first second says no more
        assert re.fullmatch(r"locksim sweep: the first \d+ runs took \d+s: about \S+ in all, ETA \S+", lines[1])
        assert re.fullmatch(r"locksim sweep: done: 14000 runs in \S+ \(\d+ runs/s\)", lines[-1])
    shard = sweep(locksim, SCENARIO, "--vary", "clock.C.drift=0.5%..2%:0.25%", "--seeds", "2", "--shard", "2/3",
                  "--out", tmp_path / "shard.csv")
    assert ok(shard).stderr.startswith("locksim sweep: cells 3-4 of 7 × 2 seeds = 4 runs on ")
    resumed = sweep(locksim, SCENARIO, "--vary", "clock.C.drift=0.5%..2%:0.25%", "--seeds", "2000", "--threads", "1",
                    "--out", tmp_path / "log.csv", "--resume")
    assert ok(resumed).stderr == "locksim sweep: all 7 cells are written already: nothing to run\n"


# --- hardening: numbers, files, manifests, resume checks, grids -----------------------------------------------------

TINY = [SCENARIO, "--vary", "clock.C.drift=1%,2%", "--seeds", "2"]


def test_more_shards_than_cells(locksim, tmp_path):
    """A shard with no cells writes nothing (shard 1 only its header), and the shards still join to the whole."""
    ok(sweep(locksim, *TINY, "--out", tmp_path / "all.csv"))
    for k in range(1, 6):
        ok(sweep(locksim, *TINY, "--shard", f"{k}/5", "--out", tmp_path / f"p{k}.csv"))
    assert (tmp_path / "p1.csv").read_text().count("\n") == 1, "shard 1 of 5 has no cell: the header only"
    assert (tmp_path / "p2.csv").read_bytes() == b""
    assert ok(sweep(locksim, *TINY, "--shard", "2/5", "--out", tmp_path / "p2.csv")).stderr == \
        "locksim sweep: this shard has none of the 2 cells: nothing to run\n"
    joined = b"".join((tmp_path / f"p{k}.csv").read_bytes() for k in range(1, 6))
    assert joined == (tmp_path / "all.csv").read_bytes()


def stopped(result, *fragments):
    """A sweep that started (its size said) and stopped at a cell: exit 2, the error its last line."""
    assert result.returncode == 2, result.stdout + result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 2 and " seeds = " in lines[0] and lines[1].startswith("locksim sweep: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[1], result.stderr
    return result


def refused(result, *fragments):
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stderr.startswith("locksim sweep: ") and result.stderr.count("\n") == 1, result.stderr
    for fragment in fragments:
        assert fragment in result.stderr, result.stderr
    return result


def test_the_same_file_under_two_names_is_refused(locksim, tmp_path):
    """--out and --per-run naming one file (./ prefix, symlink, hard link, a manifest, the scenario) exit 2, writing nothing."""
    a = tmp_path / "a.csv"
    refused(sweep(locksim, *TINY, "--out", a, "--per-run", f"{tmp_path}/./a.csv"),
            f"--out {a} and --per-run {tmp_path}/./a.csv are the same file")
    assert not a.exists() and not (tmp_path / "a.csv.json").exists()
    refused(sweep(locksim, *TINY, "--out", a, "--per-run", tmp_path / "a.csv.json"),
            f"the manifest of --out {a}.json and --per-run {a}.json are the same file")
    a.write_text("keep me\n")
    (tmp_path / "link.csv").symlink_to(a)
    refused(sweep(locksim, *TINY, "--out", a, "--per-run", tmp_path / "link.csv"), "are the same file")
    os.link(a, tmp_path / "hard.csv")
    refused(sweep(locksim, *TINY, "--out", tmp_path / "hard.csv", "--per-run", a), "are the same file")
    assert a.read_text() == "keep me\n"
    scenario = tmp_path / "s.toml"
    shutil.copy(locksim_root() / SCENARIO, scenario)
    before = scenario.read_bytes()
    refused(sweep(locksim, scenario, "--vary", "clock.C.drift=1%", "--seeds", "1", "--out", tmp_path / "." / "s.toml"),
            f"the scenario file {scenario} and --out")
    grid = tmp_path / "grid.csv"
    grid.write_text("clock.C.drift\n1%\n")
    refused(sweep(locksim, scenario, "--grid", grid, "--seeds", "1", "--per-run", grid), "--grid")
    assert scenario.read_bytes() == before and grid.read_text() == "clock.C.drift\n1%\n"


def test_manifests_describe_the_sweep(locksim, tmp_path):
    """Every file gets FILE.json: version, scenario hash, --set, --vary, keys, cells, seeds, shard range, command line."""
    ok(sweep(locksim, *TINY, "--set", "lock.ttl=5s", "--shard", "2/2", "--out", tmp_path / "s.csv",
             "--per-run", tmp_path / "r.csv"))
    summary = json.loads((tmp_path / "s.csv.json").read_text())
    per_run = json.loads((tmp_path / "r.csv.json").read_text())
    assert summary["format"] == "locksim sweep manifest" and summary["csv_format"] == 4
    assert summary["manifest_version"] == 2 and summary["variants"] == ["base"] and "variant" not in summary
    assert summary["file"] == "summary" and per_run["file"] == "per-run"
    assert summary["scenario_name"] == "redlock-clock-drift" and len(summary["scenario_hash"]) == 16
    assert summary["set"] == ["lock.ttl=5s"] and summary["vary"] == ["clock.C.drift=1%,2%"]
    assert summary["keys"] == ["clock.C.drift"] and summary["cells"] == 2 and summary["seeds"] == 2
    assert summary["shard"] == "2/2" and summary["shard_cells"] == {"begin": 1, "end": 2}
    assert summary["command_line"][1:3] == ["sweep", SCENARIO] and summary["grid_hash"] == ""
    # For the plot and report commands: the first cell's faults, those its story needs ([expect] fired lists
    # both), clients and [expect] verdicts.
    assert summary["faults"] == ["c1-cut-from-D-E", "c2-cut-from-A-B"] and summary["clients"] == ["c1", "c2"]
    assert summary["story_faults"] == summary["faults"]
    assert summary["expect"] == {"base": {"grant-exclusive": "violated", "belief-exclusive": "violated"}}
    assert {k: v for k, v in per_run.items() if k != "file"} == {k: v for k, v in summary.items() if k != "file"}


def test_no_manifest_for_standard_output(locksim, tmp_path):
    """Writing to standard output leaves no manifest anywhere."""
    result = subprocess.run([locksim.binary, "sweep", str(locksim_root() / SCENARIO), *TINY[1:]], cwd=tmp_path,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and result.stdout.startswith("scenario,")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("change, message", [
    (["--set", "lock.ttl=10s"], "--set differs: the file has lock.ttl=5s, this command has lock.ttl=10s"),
    (["--set", "lock.ttl=5s", "--seeds", "3"], "--seeds differs: the file has 2, this command has 3"),
    (["--set", "lock.ttl=5s", "--variant", "fast-0.5pct"], "--variant differs: the file has base, this command has fast-0.5pct"),
])
def test_resume_refuses_a_changed_sweep(locksim, tmp_path, change, message):
    """--resume with another --set, --seeds or --variant names the field and both values, and changes nothing."""
    out = tmp_path / "s.csv"
    ok(sweep(locksim, *TINY, "--set", "lock.ttl=5s", "--out", out, "--per-run", tmp_path / "r.csv"))
    lines = out.read_bytes().splitlines(keepends=True)
    out.write_bytes(b"".join(lines[:2]))  # as if killed after the first cell
    before = out.read_bytes()
    args = [a for a in TINY if a not in ("--seeds", "2")] + (["--seeds", "2"] if "--seeds" not in change else [])
    refused(sweep(locksim, *args, *change, "--out", out, "--per-run", tmp_path / "r.csv", "--resume"),
            f"--resume: {out} was written by a different sweep: ", message)
    assert out.read_bytes() == before


def test_resume_refuses_a_modified_scenario(locksim, tmp_path):
    """Editing the scenario file between a sweep and its --resume is refused, naming both hashes."""
    scenario = tmp_path / "s.toml"
    shutil.copy(locksim_root() / SCENARIO, scenario)
    args = [scenario, *TINY[1:], "--out", tmp_path / "s.csv"]
    ok(sweep(locksim, *args))
    scenario.write_text(scenario.read_text() + "\n# an edit\n")
    refused(sweep(locksim, *args, "--resume"), "the scenario file changed since the sweep started (hash ")


def test_resume_accepts_other_threads_and_refuses_a_file_without_manifest(locksim, tmp_path):
    """The command line is recorded, not compared: --threads may change. A file with no manifest is refused."""
    out = tmp_path / "s.csv"
    ok(sweep(locksim, *TINY, "--threads", "1", "--out", out))
    whole = out.read_bytes()
    out.write_bytes(whole[: whole.index(b"\n") + 1])
    ok(sweep(locksim, *TINY, "--threads", "2", "--out", out, "--resume"))
    assert out.read_bytes() == whole
    (tmp_path / "s.csv.json").unlink()
    refused(sweep(locksim, *TINY, "--out", out, "--resume"),
            f"{out} has no manifest ({out}.json) beside it, so locksim cannot tell which sweep wrote it; "
            "remove the file to start over")


def test_resume_refuses_a_tampered_row(locksim, tmp_path):
    """A kept row whose numbers do not add up is refused with file:line and what is wrong, not silently cut."""
    out = tmp_path / "s.csv"
    ok(sweep(locksim, *TINY, "--out", out))
    lines = out.read_text().splitlines(keepends=True)
    fields = lines[1].split(",")
    fields[3] = "3"  # runs
    out.write_text(lines[0] + ",".join(fields))
    refused(sweep(locksim, *TINY, "--out", out, "--resume"), f"--resume: {out}:2: runs is '3', but --seeds is 2")
    fields[3], fields[4] = "2", "1"  # one violation of two, but the rate still says 0
    out.write_text(lines[0] + ",".join(fields))
    refused(sweep(locksim, *TINY, "--out", out, "--resume"),
            f"{out}:2: grant-exclusive.rate,ci_low,ci_high are '0.000000,0.000000,0.657620', but 1 of 2 runs give")


def test_grid_bom_crlf_and_blank_lines_are_accepted(locksim, tmp_path):
    """A grid with a BOM, CRLF line ends, blank lines and a blank last line gives the same file as a plain grid."""
    plain, fancy = tmp_path / "plain.csv", tmp_path / "fancy.csv"
    plain.write_text("clock.C.drift\n1%\n2%\n")
    fancy.write_bytes(b"\xef\xbb\xbfclock.C.drift\r\n1%\r\n\r\n2%\r\n\r\n")
    for g in (plain, fancy):
        ok(sweep(locksim, SCENARIO, "--grid", g, "--seeds", "2", "--out", tmp_path / f"{g.stem}.out.csv"))
    assert (tmp_path / "plain.out.csv").read_bytes() == (tmp_path / "fancy.out.csv").read_bytes()


@pytest.mark.parametrize("content, line, fragment", [
    (b"clock.C.drift\n1%\n2\x00%\n", 3, "a NUL byte at column 2; a grid file is CSV text, and this looks like a binary file"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", 1, "a byte that is not UTF-8 at column 1"),
    (b"clock.C.drift\ncaf\xe9\n", 2, "a byte that is not UTF-8 at column 4; a grid file is CSV text in UTF-8"),
    (b"clock.C.drift\n" + b"x" * (1 << 21) + b"\n", 2, "a line longer than 1 MiB"),
], ids=["nul", "png", "latin1", "long-line"])
def test_binary_grids_are_refused_with_a_line(locksim, tmp_path, content, line, fragment):
    """NUL bytes, bytes that are not UTF-8 and over-long lines give grid.csv:LINE in our own words."""
    grid = tmp_path / "grid.csv"
    grid.write_bytes(content)
    result = refused(sweep(locksim, SCENARIO, "--grid", grid, "--seeds", "1"), f"{grid}:{line}: {fragment}")
    assert "io::" not in result.stderr and "Extra column" not in result.stderr


def test_a_bad_grid_value_is_named_once(locksim, tmp_path):
    """The bad value appears once in the message; the cell is still named."""
    grid = tmp_path / "grid.csv"
    value = "fast" * 20
    grid.write_text(f"lock.ttl,clock.C.drift\n10s,1%\n10s,{value}\n")
    result = refused(sweep(locksim, SCENARIO, "--grid", grid, "--seeds", "1"), f"{grid}:3: clock.C.drift: bad rate")
    assert result.stderr.count(value) == 1, result.stderr
    assert "(cell lock.ttl=10s;clock.C.drift=...)" in result.stderr


QUORUM_GRID = 'redis.nodes,redlock.quorum\n"[""A"",""B"",""C"",""D"",""E""]",4\n"[""A"",""B"",""C""]",2\n"[""A"",""B"",""C""]",4\n'


def test_a_combination_that_fails_when_reached_stops_the_sweep(locksim, tmp_path):
    """A grid row whose values pass alone but not together stops the sweep there: exit 2, file:line, earlier rows kept."""
    grid, out = tmp_path / "grid.csv", tmp_path / "s.csv"
    grid.write_text(QUORUM_GRID)
    stopped(sweep(locksim, "scenarios/no-faults-redlock.toml", "--grid", grid, "--seeds", "1", "--out", out),
            f"{grid}:4: redlock.quorum: must be between 1 and 3", '(cell redis.nodes=["A","B","C"];redlock.quorum=4)')
    assert out.read_text().count("\n") == 3, "the header and the two cells before the bad one"
    result = stopped(sweep(locksim, "scenarios/no-faults-redlock.toml", "--vary", 'redis.nodes=["A","B","C","D","E"],["A","B","C"]',
                           "--vary", "redlock.quorum=2,4", "--seeds", "1", "--out", out),
                     "--vary: redlock.quorum: must be between 1 and 3")
    assert out.read_text().count("\n") == 4, "cells 1-3 of the cross product are written"


def test_resume_after_kill_with_two_threads_and_a_grid(locksim, tmp_path):
    """A grid sweep killed part-way and resumed equals the uninterrupted sweep, per-run file included."""
    grid = tmp_path / "grid.csv"
    grid.write_text("clock.C.drift\n" + "".join(f"{d}ppm\n" for d in range(10000, 16000, 200)))
    args = [SCENARIO, "--grid", grid, "--set", "network.latency=uniform(500us, 2ms)", "--seeds", "120", "--threads", "2"]
    out, runs = tmp_path / "killed.csv", tmp_path / "killed.runs.csv"
    proc = subprocess.Popen([locksim.binary, "sweep", *map(str, args), "--out", out, "--per-run", runs],
                            cwd=locksim_root(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (out.exists() and out.read_text().count("\n") >= 3):
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert 2 <= out.read_text().count("\n") - 1 < 30, "the sweep was killed part-way"
    ok(sweep(locksim, *args, "--out", out, "--per-run", runs, "--resume"))
    ok(sweep(locksim, *args[:-1], "1", "--out", tmp_path / "whole.csv", "--per-run", tmp_path / "whole.runs.csv"))
    assert out.read_bytes() == (tmp_path / "whole.csv").read_bytes()
    assert runs.read_bytes() == (tmp_path / "whole.runs.csv").read_bytes()


def test_devices_get_no_manifest(locksim):
    """--out and --per-run may both be /dev/null (even with --resume): no manifest is written beside a device."""
    ok(sweep(locksim, *TINY, "--out", "/dev/null", "--per-run", "/dev/null", "--resume"))
    assert not os.path.exists("/dev/null.json")


@pytest.mark.parametrize("content, line, fragment", [
    (b"clock.C.drift,lock.ttl\n1%,5s\n2%\n", 3, "this row has fewer values than the header's 2 keys"),
    (b"clock.C.drift\n1%,5s\n", 2, "this row has more values than the header's 1 keys"),
    (b'clock.C.drift\n1%\n"2%\n', 3, "a quoted value is not closed"),
    (b'\n"clock.C.drift\n1%\n', 2, "a quoted value is not closed"),
    (b"clock.C.drift\n1%\n1%,2%\n\x00\n", 3, "this row has more values"),
], ids=["too-few", "too-many", "unclosed-quote", "unclosed-quote-in-header", "first-problem-first"])
def test_malformed_grid_rows_are_refused_in_our_words(locksim, tmp_path, content, line, fragment):
    """Ragged rows and open quotes, which the CSV library finds, give grid.csv:LINE in our words, the first one first."""
    grid = tmp_path / "grid.csv"
    grid.write_bytes(content)
    result = refused(sweep(locksim, SCENARIO, "--grid", grid, "--seeds", "1"), f"{grid}:{line}: {fragment}")
    for library in ("Too few", "Too many", "Escaped string", "in file", "io::"):
        assert library not in result.stderr, result.stderr


def test_a_damaged_manifest_is_refused_in_our_words(locksim, tmp_path):
    """A manifest cut short or edited is refused with where reading stopped or which field is wrong, changing nothing."""
    out, manifest = tmp_path / "s.csv", tmp_path / "s.csv.json"
    ok(sweep(locksim, *TINY, "--out", out))
    text = manifest.read_text()
    before = out.read_bytes()
    cut = text[:text.index('"seeds"')]  # as if the disk filled up: the next thing would be a member name
    manifest.write_text(cut)
    result = refused(sweep(locksim, *TINY, "--out", out, "--resume"),
                     f"--resume: {manifest} is not a sweep manifest: at byte {len(cut) + 1}: "
                     f"expected a member name in quotes; remove {out} to start over")
    assert "json.exception" not in result.stderr and "syntax error" not in result.stderr
    manifest.write_text(text.replace('"seeds": 2,', '"seeds": 2.5,'))
    refused(sweep(locksim, *TINY, "--out", out, "--resume"), f'{manifest} is not a sweep manifest: "seeds" is not a whole number')
    assert out.read_bytes() == before


def test_a_set_value_that_is_not_utf8_resumes(locksim, tmp_path):
    """--set bytes that are not UTF-8 are kept in the manifest as U+FFFD, and --resume with the same value goes on."""
    out = tmp_path / "s.csv"
    command = [locksim.binary, "sweep", SCENARIO, "--set", b"lock.key=caf\xe9", "--vary", "clock.C.drift=1%,2%,3%",
               "--seeds", "2", "--out", out]
    assert subprocess.run(command, cwd=locksim_root(), capture_output=True, timeout=120).returncode == 0
    assert json.loads((tmp_path / "s.csv.json").read_text())["set"] == ["lock.key=caf\ufffd"]
    whole = out.read_bytes()
    out.write_bytes(whole[: whole.index(b"\n", whole.index(b"\n") + 1) + 1])
    result = subprocess.run(command + ["--resume"], cwd=locksim_root(), capture_output=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert out.read_bytes() == whole
