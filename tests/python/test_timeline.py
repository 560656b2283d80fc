"""The timeline picture and its command line (analysis/timeline.py and its painter).

What is drawn is computed by pure functions, tested in test_timeline_model.py without plotting; here the drawing
is tested through the files it writes (PNG, SVG with text kept as text) and the artists it puts on the axes.
Traces are the hand-written fixtures of data/ (conftest.py tells their stories) and small ones written inline.
"""

from __future__ import annotations

import json
from pathlib import Path

import matplotlib.colors
import matplotlib.image
import pytest
from matplotlib.patches import Rectangle

from analysis import style, timeline
from analysis.trace import load, load_verdicts, parse_lines
from label_boxes import overlapping_texts
from tracelines import (
    MS, ONE_NODE, S, belief, grant, header, holder, judged, line, masters, message, role, window)

EXTENDED_HATCH = "\\" * 4  # what renewals added to a promised window: "////" mirrored


# --- the picture ---------------------------------------------------------------------


def _violation_xs(fig) -> list[float]:
    ax = fig.axes[0]
    return sorted(l.get_xdata()[0] for l in ax.lines if l.get_color() == style.VIOLATION and len(l.get_xdata()) == 2)


def test_verdict_lines_are_drawn_at_first_witnesses(gc_path, gc_verdicts):
    """Each violated property gets a red line at its first witness: the trace's own verdicts (its judged lines),
    or those of a verdicts file when one is given."""
    trace = load(gc_path)
    variant, verdicts = load_verdicts(gc_verdicts, "base")
    with style.context():
        given = timeline.draw(trace, verdicts=verdicts, variant=variant)
        own = timeline.draw(trace)
    assert _violation_xs(given) == pytest.approx([11.001, 15.0025, 15.0025, 25.0])
    texts = [t.get_text() for t in given.axes[0].texts]
    assert "P2" in texts and "P3 P4" in texts and "P5" in texts and "P1" not in " ".join(texts)
    # The checkers' own: P3, P4 and P5 all at c1's late write.
    assert _violation_xs(own) == pytest.approx([11.001, 15.0025, 15.0025, 15.0025])
    assert "P3 P4 P5" in [t.get_text() for t in own.axes[0].texts]
    under = [t.get_text() for t in own.texts]
    assert any(t.startswith("Verdicts: violated P2 belief-exclusive") for t in under)
    assert any("lost 1 update" in t for t in under)


def test_lanes_for_clients_nodes_and_resource(redlock_path):
    """Five nodes get five lanes between the clients and the resource, then the network."""
    with style.context():
        fig = timeline.draw(load(redlock_path))
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    ys = list(fig.axes[0].get_yticks())
    assert labels == ["c1", "c2", "A", "B", "C", "D", "E", "service holder", "resource", "network"]
    assert ys == sorted(ys, reverse=True)  # in that order from the top down


def test_window_sets_the_x_range(gc_path):
    """--from/--to choose the seconds shown (with a small margin)."""
    with style.context():
        fig = timeline.draw(load(gc_path), window=(10.0, 12.0))
    lo, hi = fig.axes[0].get_xlim()
    assert 9.9 < lo < 10.0 and 12.0 < hi < 12.1
    with pytest.raises(ValueError):
        timeline.draw(load(gc_path), window=(3.0, 2.0))


def test_cli_writes_png_and_svg(gc_path, tmp_path, run_cli):
    """One run writes every --out: a real, non-blank PNG and an SVG whose text names every lane."""
    png, svg = tmp_path / "timeline.png", tmp_path / "sub" / "timeline.svg"
    result = run_cli(gc_path, "--out", png, "--out", svg)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 30_000
    pixels = matplotlib.image.imread(png)
    assert pixels.shape[1] > 1500 and pixels.shape[0] > 600 and pixels[..., :3].std() > 0.05
    text = svg.read_text(encoding="utf-8")
    assert svg.stat().st_size > 10_000
    for lane in ("c1", "c2", "r1", "resource"):
        assert f">{lane}</text>" in text, lane
    assert "single_node_gc_pause" in text and "session 1" in text and "paused 15 s" in text


def test_cli_marks_violations_from_a_verdicts_file(gc_path, gc_verdicts, tmp_path, run_cli):
    """--verdicts/--variant put the property ids and witness texts into the picture."""
    svg = tmp_path / "t.svg"
    result = run_cli(gc_path, "--out", svg, "--verdicts", gc_verdicts, "--variant", "base", "--title", "GC pause")
    assert result.returncode == 0, result.stderr
    text = svg.read_text(encoding="utf-8")
    assert ">GC pause</text>" in text and ">P2</text>" in text and ">P3 P4</text>" in text
    assert "c2 (session 2) granted at 11.001s" in text
    fenced = tmp_path / "fenced.svg"
    assert run_cli(gc_path, "--out", fenced, "--verdicts", gc_verdicts, "--variant", "fenced").returncode == 0
    text = fenced.read_text(encoding="utf-8")
    assert ">P2</text>" in text and ">P3 P4</text>" not in text


def test_cli_draws_five_nodes(redlock_path, tmp_path, run_cli):
    """The five-node story draws, with a lane label for every node."""
    svg = tmp_path / "redlock.svg"
    result = run_cli(redlock_path, "--out", svg, "--from", "0", "--to", "6")
    assert result.returncode == 0, result.stderr
    text = svg.read_text(encoding="utf-8")
    for lane in ("A", "B", "C", "D", "E", "network"):
        assert f">{lane}</text>" in text, lane
    assert "wall clock +15 s" in text


def test_extended_window_ticks_and_bursts_are_drawn(redlock_extend_path):
    """c1's window is drawn as the grant's part plus the part its renewal added, with a tick at 5.001 s; r4's burst
    of failed attempts is one bar; the slew on r3 is a line from 6 s to 8 s."""
    with style.context():
        fig = timeline.draw(load(redlock_extend_path))
    ax = fig.axes[0]
    c1_y = next(y for y, t in zip(ax.get_yticks(), ax.get_yticklabels()) if t.get_text() == "c1")
    windows = sorted((round(p.get_x(), 3), round(p.get_x() + p.get_width(), 3), p.get_hatch())
                     for p in ax.patches if p.get_hatch() in ("////", EXTENDED_HATCH)
                     and abs(p.get_y() + p.get_height() / 2 - c1_y) < 1e-9)
    assert windows == [(0.001, 9.898, "////"), (9.898, 14.898, EXTENDED_HATCH)]
    ticks = [l.get_xdata()[0] for l in ax.lines if l.get_marker() == 3 and l.get_color() == "black"]
    assert ticks == pytest.approx([5.001])
    bursts = [p for p in ax.patches if p.get_hatch() == "...."]
    assert len(bursts) == 2  # r4 and r5, one bar each
    assert any(list(l.get_xdata()) == pytest.approx([6.0, 8.0]) for l in ax.lines)
    texts = [t.get_text() for t in ax.texts]
    assert "c2 · 11 failed attempts" in texts and "slew +500000 ppm (+50 %) for 2 s" in texts
    assert "session 1 · renewed ×1" in texts
    assert not any(t.startswith("drift ") for t in texts), "a slew's end is not a separate drift"


def test_every_node_lane_says_whose_value_and_why_it_went(redlock_extend_path, redlock_extend_verdicts, tmp_path,
                                                           run_cli):
    """Five nodes r1..r5 in service order; each lane names the session whose value it holds and the reason it went."""
    svg = tmp_path / "redlock.svg"
    result = run_cli(redlock_extend_path, "--out", svg, "--verdicts", redlock_extend_verdicts)
    assert result.returncode == 0, result.stderr
    trace = load(redlock_extend_path)
    with style.context():
        fig = timeline.draw(trace)
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == ["c1", "c2", "r1", "r2", "r3", "r4", "r5", "service holder", "resource", "network"]
    lane_y = dict(zip(labels, ax.get_yticks()))
    by_lane: dict[str, set[str]] = {}
    for t in ax.texts:
        for name in ("r1", "r2", "r3", "r4", "r5"):
            if abs(t.get_position()[1] - lane_y[name]) < 0.5:
                by_lane.setdefault(name, set()).add(t.get_text())
    assert {"c1 · session 1", "deleted"} <= by_lane["r1"] and {"c1 · session 1", "deleted"} <= by_lane["r2"]
    assert {"c1 · session 1", "expired", "c2 · session 2", "deleted"} <= by_lane["r3"]
    for node in ("r4", "r5"):
        assert {"c2 · 11 failed attempts", "c2 · session 2", "deleted"} <= by_lane[node]
    text = svg.read_text(encoding="utf-8")
    assert ">P1 P2 P3 P4</text>" in text and "extended at 5.001s" in text


def test_expired_grant_is_labelled_in_red():
    """A session whose lease was over when acquire returned says so on its label, in the violation colour, and has
    no window; a belief ended by its client's crash says "crashed"."""
    trace = parse_lines([header(ONE_NODE, ["r1"]), grant(1 * S, 1, "c1", "aa"), grant(1 * S, 2, "c2", "bb"),
                         line(2 * S, "fault", fault="crash", target="c2", down_for_ns=-1, until=None),
                         line(3 * S, "span", span="down", target="c2", start=2 * S, ended="run-ended"), line(3 * S, "end"),
                         *judged(3 * S, beliefs=[belief(1, "c1", "aa", 1 * S, 3 * S, "run-end", promised_end=1 * S),
                                                 belief(2, "c2", "bb", 1 * S, 2 * S, "client-crash",
                                                        promised_end=11 * S)],
                                 windows=[window(2, "c2", 1 * S, 11 * S, promised_end=11 * S)],
                                 roles=masters(["r1"], 3 * S))])
    with style.context():
        fig = timeline.draw(trace)
    ax = fig.axes[0]
    label = next(t for t in ax.texts if t.get_text().startswith("session 1"))
    assert label.get_text() == "session 1 · expired at grant" and label.get_color() == style.VIOLATION
    assert "crashed" in {t.get_text() for t in _texts_by_lane(fig)["c2"]}
    windows = [p for p in ax.patches if p.get_hatch() == "////"]
    assert len(windows) == 1  # c2's only


@pytest.mark.parametrize("make_args, message", [
    (lambda d, gc, v: [d / "missing.jsonl", "--out", d / "x.png"], "missing.jsonl: cannot read"),
    (lambda d, gc, v: [v, "--out", d / "x.png"], "not a locksim trace"),
    (lambda d, gc, v: [gc, "--out", d / "x.pdf"], "unsupported output type"),
    (lambda d, gc, v: [gc, "--out", d / "x.png", "--verdicts", v], "choose one with --variant"),
    (lambda d, gc, v: [gc, "--out", d / "x.png", "--verdicts", v, "--variant", "nope"], "no variant 'nope'"),
    (lambda d, gc, v: [gc, "--out", d / "x.png", "--from", "5", "--to", "1"], "must be after --from"),
    (lambda d, gc, v: [gc], "--out"),
    (lambda d, gc, v: [d / "old.jsonl", "--out", d / "x.png"], "no judged lines"),
])
def test_cli_bad_input_exits_2_with_one_line(make_args, message, gc_path, gc_verdicts, tmp_path, run_cli):
    """Missing or malformed input, a trace without judged lines and bad options: exit 2, one line on stderr, no
    output file."""
    old = [json.loads(l) for l in gc_path.read_text(encoding="utf-8").splitlines()]
    (tmp_path / "old.jsonl").write_text("".join(json.dumps(o) + "\n" for o in old if o["type"] not in (
        "judged", "belief", "promised-window", "holder", "role-interval", "verdict")), encoding="utf-8")
    result = run_cli(*make_args(tmp_path, gc_path, gc_verdicts))
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1 and result.stderr.startswith("timeline: ")
    assert message in result.stderr
    assert not (tmp_path / "x.png").exists() and not (tmp_path / "x.pdf").exists()


# --- replication, Sentinel and services --------------------------------------------------

def _texts_by_lane(fig) -> dict[str, list]:
    """Each lane's texts (by the lane's axis label), from the axes' text artists within half a lane of its centre."""
    ax = fig.axes[0]
    lanes = [(t.get_text(), y) for t, y in zip(ax.get_yticklabels(), ax.get_yticks())]
    out: dict[str, list] = {name: [] for name, _ in lanes}
    for t in ax.texts:
        if t.get_transform() is not ax.transData:
            continue
        y = t.get_position()[1]
        for name, lane_y in lanes:
            if lane_y - 0.5 <= y < lane_y + 0.5:
                out[name].append(t)
    return out


def _lane_labels(fig) -> list[str]:
    return [t.get_text() for t in fig.axes[0].get_yticklabels()]


def _legend_texts(fig) -> list[str]:
    return [t.get_text() for t in fig.legends[0].get_texts()]


def test_failover_lanes_roles_and_promotion(failover_path):
    """Redis lanes say each node's first role; R's lane marks its promotion (and that it had no copy of the lock);
    a dashed line crosses the Redis and sentinel lanes there; no empty resource lane."""
    with style.context():
        fig = timeline.draw(load(failover_path))
    assert _lane_labels(fig) == ["c1", "c2", "M (master)", "R (replica)", "service holder", "s1", "s2", "s3",
                                 "network"]
    ax = fig.axes[0]
    lane_y = dict(zip(_lane_labels(fig), ax.get_yticks()))
    dashed = [l for l in ax.lines if l.get_color() == style.ROLE and len(l.get_xdata()) == 2
              and l.get_xdata()[0] == l.get_xdata()[1]]
    assert len(dashed) == 1 and dashed[0].get_xdata()[0] == pytest.approx(1.161)
    assert sorted(dashed[0].get_ydata()) == pytest.approx([lane_y["s3"] - 0.5, lane_y["M (master)"] + 0.5])
    by_lane = {k: {t.get_text() for t in v} for k, v in _texts_by_lane(fig).items()}
    assert "promoted to master, epoch 1 · had no copy of the lock" in by_lane["R (replica)"]
    assert {"c1 · session 1", "lost-in-crash"} <= by_lane["M (master)"]
    assert {"c2 · session 2", "deleted"} <= by_lane["R (replica)"]
    assert {"M down (SDOWN) · failover, epoch 1: asks votes", "REPLICAOF NO ONE → R · +switch-master M → R"} \
        <= by_lane["s3"]
    assert {"M down (SDOWN) · votes s3, epoch 1", "+switch-master M → R"} <= by_lane["s1"]
    assert any(t.startswith("131 dropped → M (down)") for t in by_lane["network"])
    legend = _legend_texts(fig)
    assert "promotion to master" in legend and "sentinel: REPLICAOF NO ONE (promote)" in legend
    # Legends only for what appears: no copies, no reconfiguration, no service calls here.
    assert "replica's copy of that client's value" not in legend and "sentinel: REPLICAOF <master>" not in legend
    assert "call to a service → its answer" not in legend and "op accepted" not in legend
    assert _violation_xs(fig) == pytest.approx([1.302, 1.302])  # P1 and P2, from the trace's verdict lines


def test_replica_copy_is_drawn_lighter_with_its_lag(replicated_path):
    """R's copy of c1's value is a light, dashed bar in c1's colour from 12 ms to the promotion, labelled with the
    lag; then R's own solid bar for the same session."""
    trace = load(replicated_path)
    with style.context():
        fig = timeline.draw(trace)
    ax = fig.axes[0]
    lane_y = dict(zip(_lane_labels(fig), ax.get_yticks()))
    c1 = style.client_colour(0)
    on_r = sorted(((round(p.get_x(), 3), round(p.get_x() + p.get_width(), 3), p.get_facecolor()[:3], p.get_linestyle())
                   for p in ax.patches if isinstance(p, Rectangle)
                   and abs(p.get_y() + p.get_height() / 2 - lane_y["R (replica)"]) < 1e-9 and p.get_height() < 0.5),
                  key=lambda r: r[0])
    copy, hold = on_r[0], on_r[1]
    assert (copy[0], copy[1]) == (0.012, 2.161) and (hold[0], hold[1]) == (2.161, 8.003)
    assert copy[2] == pytest.approx(matplotlib.colors.to_rgb(style.tint(c1)))
    assert hold[2] == pytest.approx(matplotlib.colors.to_rgb(c1)) and copy[3] != hold[3]
    texts = {t.get_text() for t in _texts_by_lane(fig)["R (replica)"]}
    assert {"c1 · replica copy · lag 11 ms", "promoted to master, epoch 1 · inherits c1's value",
            "c1 · session 1"} <= texts
    assert "replica's copy of that client's value" in _legend_texts(fig)


def test_split_brain_demotion_and_reconfiguration(split_brain_path, tmp_path, run_cli):
    """The old master's lane shows c1's key dropped by the demotion and M turning replica; the sentinels' lanes the
    REPLICAOF R each sent it; the PNG and SVG name every lane."""
    png, svg = tmp_path / "split.png", tmp_path / "split.svg"
    result = run_cli(split_brain_path, "--out", png, "--out", svg)
    assert result.returncode == 0, result.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = svg.read_text(encoding="utf-8")
    for lane in ("c1", "c2", "M (master)", "R (replica)", "service holder", "s1", "s2", "s3", "network"):
        assert f">{lane}</text>" in text, lane
    for label in ("demoted: replica of R, epoch 1", "c2 · replica copy (full resync)", "REPLICAOF R → M",
                  "partition 0 (drop)", "sentinel: REPLICAOF &lt;master&gt;", "node demoted / re-pointed"):
        assert label in text, label
    with style.context():
        fig = timeline.draw(load(split_brain_path))
    m_texts = {t.get_text(): t for t in _texts_by_lane(fig)["M (master)"]}
    assert "demoted" in m_texts and "c1 · session 1" in m_texts
    markers = [l.get_marker() for l in fig.axes[0].lines if l.get_color() == style.ROLE and len(l.get_xdata()) == 1]
    assert markers.count("^") == 1 and markers.count("v") == 1


def test_incident_shows_the_stalled_service(oversell_path, tmp_path, run_cli):
    """identity gets a lane: grey for its 30 s pause, a line per buyer's call from the call to the answer at 30 s;
    r1 says c1's DEL deleted c3's lock, in red; the resource names each sale."""
    with style.context():
        fig = timeline.draw(load(oversell_path))
    assert _lane_labels(fig) == ["c1", "c2", "c3", "r1", "identity", "resource"]
    ax = fig.axes[0]
    lane_y = dict(zip(_lane_labels(fig), ax.get_yticks()))
    calls = sorted((round(l.get_xdata()[0], 3), round(l.get_xdata()[1], 3), l.get_color()) for l in ax.lines
                   if len(l.get_xdata()) == 2 and abs(l.get_ydata()[0] - lane_y["identity"]) < 0.5
                   and l.get_linewidth() > 2)
    assert calls == [(0.002, 30.005, style.client_colour(0)), (10.122, 30.005, style.client_colour(1)),
                     (20.242, 30.005, style.client_colour(2))]
    by_lane = {k: {t.get_text(): t for t in v} for k, v in _texts_by_lane(fig).items()}
    assert {"paused 30 s", "c1: answered after 30.003 s", "c3: answered after 9.763 s"} <= set(by_lane["identity"])
    assert by_lane["r1"]["deleted by c1"].get_color() == style.VIOLATION
    assert {"read stock 1 ×3 (c1, c2, c3)", "c3 decrement stock -2"} <= set(by_lane["resource"])
    assert "call to a service → its answer" in _legend_texts(fig) and "paused" in _legend_texts(fig)
    svg = tmp_path / "incident.svg"
    assert run_cli(oversell_path, "--out", svg, "--out", tmp_path / "incident.png").returncode == 0
    text = svg.read_text(encoding="utf-8")
    assert ">identity</text>" in text and "services" in text and "stock -2" in text


def test_many_sentinels_share_one_lane():
    """More than three sentinels are one lane; each label names its sentinel, and a fault on one shows there."""
    procs = [("M", "redis"), ("R", "redis"), ("c1", "client")] + [(f"s{i}", "sentinel") for i in range(1, 6)]
    trace = parse_lines([
        header(procs, ["M", "R"]),
        line(0, "key-held", node="M", key="lock", value="aa"),
        line(1 * S, "fault", fault="crash", target="s4", down_for_ns=-1, until=None),
        message(2 * S, "send", "s1", "s2", "is-master-down-by-addr M epoch 0", "is-master-down", request_id=1,
                master="M", epoch=0, wants_vote=False),
        message(3 * S, "send", "s5", "R", "REPLICAOF NO ONE", "replicaof", master=None, epoch=1),
        line(3 * S + MS, "role", node="R", role="master", epoch=1),
        line(6 * S, "span", span="down", target="s4", start=1 * S, ended="run-ended"),
        line(6 * S, "end"),
        *judged(6 * S, holders=[holder(0, 6 * S, "aa")],
                roles=[role("M", "master", 0, 6 * S), role("R", "replica", 0, 3 * S + MS, master="M"),
                       role("R", "master", 3 * S + MS, 6 * S, epoch=1, changed=True)]),
    ])
    with style.context():
        fig = timeline.draw(trace)
    assert _lane_labels(fig) == ["c1", "M (master)", "R (replica)", "service holder", "sentinels ×5"]
    texts = {t.get_text() for t in _texts_by_lane(fig)["sentinels ×5"]}
    assert {"s1: M down (SDOWN)", "s5: REPLICAOF NO ONE → R"} <= texts
    assert any(l.get_marker() == "X" for l in fig.axes[0].lines)  # s4's crash, on the shared lane


def test_quiet_sentinels_share_one_lane():
    """Sentinels that saw nothing (a run without faults) take one lane that says so, not three empty ones."""
    procs = [("M", "redis"), ("R", "redis"), ("c1", "client")] + [(f"s{i}", "sentinel") for i in range(1, 4)]
    trace = parse_lines([
        header(procs, ["M", "R"]),
        message(0, "send", "s1", "M", "PING", "ping", request_id=1),
        message(MS, "send", "M", "s1", "PONG", "pong", request_id=1),
        line(1 * S, "end"),
        *judged(1 * S, roles=[role("M", "master", 0, 1 * S), role("R", "replica", 0, 1 * S, master="M")]),
    ])
    with style.context():
        fig = timeline.draw(trace)
    assert _lane_labels(fig) == ["c1", "M (master)", "R (replica)", "service holder", "sentinels ×3"]
    assert {t.get_text() for t in _texts_by_lane(fig)["sentinels ×3"]} == {"no master seen down, no failover"}
    assert not any(t.startswith("sentinel") for t in _legend_texts(fig))


@pytest.mark.parametrize("name", ["master_replica_failover", "master_replica_replicated", "sentinel_split_brain",
                                  "oversell_incident", "single_node_gc_pause", "redlock_clock_jump",
                                  "every_line_type", "redlock_extend_slew"])
def test_labels_never_overlap(name):
    """No two texts of the figure overlap, whatever the story (the painter leaves one out rather than overlap)."""
    with style.context():
        fig = timeline.draw(load(Path(__file__).resolve().parent / "data" / f"{name}.jsonl"))
    assert overlapping_texts(fig) == []


def test_cli_marks_the_failover_violation(failover_path, failover_verdicts, tmp_path, run_cli):
    """With the verdicts, P1 and P2 are marked where c2 is granted on R while c1 still holds M's lost lock."""
    svg = tmp_path / "failover.svg"
    result = run_cli(failover_path, "--out", svg, "--verdicts", failover_verdicts)
    assert result.returncode == 0, result.stderr
    text = svg.read_text(encoding="utf-8")
    assert ">P1 P2</text>" in text and "granted at 1.302s on R" in text
    assert ">M (master)</text>" in text and ">R (replica)</text>" in text and "Sentinel" in text


def test_holder_lane_shows_the_judged_holder(redlock_path):
    """With five nodes the service holder gets a lane: a bar per judged holder stretch in its owner's colour — c1's
    ends at 1.1 s when C's key expires (two nodes are no quorum) although c1 believes on, c2's from 2.0005 s."""
    with style.context():
        fig = timeline.draw(load(redlock_path))
    ax = fig.axes[0]
    y = dict(zip(_lane_labels(fig), ax.get_yticks()))["service holder"]
    bars = sorted((round(p.get_x(), 4), round(p.get_x() + p.get_width(), 4), p.get_facecolor()[:3])
                  for p in ax.patches if isinstance(p, Rectangle) and abs(p.get_y() + p.get_height() / 2 - y) < 1e-9
                  and p.get_height() < 0.5)
    assert [(a, z) for a, z, _ in bars] == [(0.0005, 1.1), (2.0005, 5.0005)]
    assert bars[0][2] == pytest.approx(matplotlib.colors.to_rgb(style.client_colour(0)))
    assert {"c1 · session 1", "c2 · session 2"} <= {t.get_text() for t in _texts_by_lane(fig)["service holder"]}
    assert "service holder: a quorum holds it" in _legend_texts(fig)
    with style.context():  # one node: its own lane is the holder
        assert "service holder" not in _lane_labels(timeline.draw(parse_lines(
            [header(ONE_NODE, ["r1"]), line(S, "end"), *judged(S, roles=masters(["r1"], S))])))


def _picture(trace) -> tuple:
    """What a figure shows, comparably: its texts (with positions) and its patches' geometry and hatches."""
    fig = timeline.draw(trace)
    ax = fig.axes[0]
    texts = sorted((t.get_text(), round(t.get_position()[0], 6), round(t.get_position()[1], 6)) for t in ax.texts)
    patches = sorted((round(p.get_x(), 6), round(p.get_y(), 6), round(p.get_width(), 6), p.get_hatch() or "")
                     for p in ax.patches if isinstance(p, Rectangle))
    return texts, patches, [t.get_text() for t in fig.texts], len(ax.lines)


@pytest.mark.parametrize("name", ["master_replica_failover", "sentinel_split_brain", "oversell_incident",
                                  "redlock_extend_slew"])
def test_blanked_message_text_draws_the_same_picture(name):
    """The picture never depends on a message's msg text: blank every one and it is the same, label for label."""
    lines = (Path(__file__).resolve().parent / "data" / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    blanked = [json.dumps(dict(o, msg="")) if "msg" in o else json.dumps(o) for o in map(json.loads, lines)]
    with style.context():
        assert _picture(parse_lines(blanked, source=name)) == _picture(parse_lines(lines, source=name))
