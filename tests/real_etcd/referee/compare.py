"""Real against simulated: verdict counts and magnitude ranges per experiment, and whether they agree.

For each experiment variant: the real repetitions, each judged from its
records (judge.py) and measured (magnitudes.py), against locksim's runs of
the same scenario variant over seeds 1..N (simulated.py). A property's
verdict over a set of runs is "violated" if any run violates it, as a sweep
reports it; the rates are shown beside. A real verdict with no violation but
some undecidable run is "unknown" and is not compared.

Disagreement: real violated where the simulation never is, or the reverse.
The model is being reworked: disagreements are findings to report, and the
exit status says there are some (1); it is 2 when an experiment could not be
compared at all (no valid repetition, or locksim refused the variant), 0
when everything compared agrees.

Each repetition's history (history.py) is also judged by `locksim check`
and held against judge.py's verdicts on the same run (locksim_check.py): a
property one says holds and the other violated is a disagreement too, and
counts as one in the exit status; a history check refuses leaves the
experiment not compared (2), since the referee wrote something the format
does not allow.
"""
import json
import os
import statistics

from . import facts, history, judge, locksim_check, magnitudes, simulated

PROPS = judge.PROPERTIES


def judge_file(path: str, experiment, scenarios_dir: str | None = None, locksim: str | None = None,
               can_check: bool = False) -> dict:
    """One real repetition: verdicts, magnitudes, whether it counts, and its history judged by locksim check.

    It does not count when a fault the experiment needs never fired, or a
    process could not set itself up (an `error`, `lease-error` or
    `session-error` record, or a line that was not JSON). A run cut at the
    cap still counts (the beliefs of the clients killed there end there),
    with a note."""
    records = facts.read_jsonl(path)
    run = facts._run_record(records)
    invalid, notes = [], []
    fired = judge.faults_fired(records)
    for kind in experiment.required_faults:
        if kind not in fired:
            invalid.append(f"fault {kind} never fired")
    for r in records:
        if r.get("event") in ("error", "lease-error", "session-error", "noise"):
            invalid.append(f"{r.get('proc')} {r.get('event')}: {r.get('error') or r.get('text')}")
    if any(r.get("proc") == "driver" and r.get("event") == "cap" for r in records):
        notes.append("cut at the run cap (a client never finished)")
    verdicts = {name: v.as_dict() for name, v in judge.judge(records).items()}
    f = facts.from_real(records)
    out = {"file": os.path.basename(path), "rep": run.get("rep"), "valid": not invalid, "problems": invalid + notes,
           "verdicts": verdicts, "magnitudes": magnitudes.measure(f, experiment.magnitudes, experiment.roles)}
    if scenarios_dir is not None:
        out["history"] = check_history(path, records, verdicts, scenarios_dir, locksim, can_check)
    return out


def check_history(path: str, records: list[dict], verdicts: dict, scenarios_dir: str, locksim: str | None,
                  can_check: bool) -> dict:
    """Writes the repetition's history beside its records and, if this locksim can, judges it."""
    result = {"file": None, "checked": False, "refused": False, "error": None, "verdicts": None,
              "against_judge": None}
    try:
        result["file"] = os.path.basename(history.write_beside(path, scenarios_dir, records))
    except history.NotConvertible as e:
        result["error"], result["refused"] = f"no history: {e}", True
        return result
    if locksim is None or not can_check:
        result["error"] = locksim_check.NO_CHECK if locksim is not None else "no locksim given"
        return result
    try:
        result["verdicts"] = locksim_check.check(locksim, history.history_path(path))
    except locksim_check.CheckError as e:
        result["error"], result["refused"] = f"locksim check could not judge the history: {e}", True
        return result
    result["checked"] = True
    result["against_judge"] = locksim_check.compare(verdicts, result["verdicts"])
    return result


def overall(statuses: list[str]) -> str:
    if "violated" in statuses:
        return "violated"
    if "unknown" in statuses:
        return "unknown"
    return "holds" if statuses else "none"


def _range(values):
    values = [v for v in values if v is not None]
    if not values:
        return None
    return (min(values), statistics.median(values), max(values), len(values))


def _fmt_range(r, count: bool = False) -> str:
    if r is None:
        return "n/a"
    lo, med, hi, n = r
    if count:
        return f"{lo:8g} {med:8g} {hi:8g}  ({n})"
    return f"{lo / 1e9:8.3f} {med / 1e9:8.3f} {hi / 1e9:8.3f}  ({n})"


def _how_surprising(real_statuses, sim_statuses) -> str:
    """How likely the real count is if the real system broke the property at locksim's rate."""
    n, k = len(real_statuses), real_statuses.count("violated")
    rate = sim_statuses.count("violated") / len(sim_statuses)
    if k == 0:
        return (f" (locksim violates it in {rate:.0%} of seeds; at that rate {n} real repetitions would all "
                f"hold with probability {(1 - rate) ** n:.2f})")
    return f" (real: {k} of {n} repetitions; locksim: none of {len(sim_statuses)} seeds)"


def compare_one(experiment, variant: str, real_reps: list[dict], sim: list[dict] | None, sim_error: str | None) -> dict:
    valid = [r for r in real_reps if r["valid"]]
    rows = []
    disagreements = []
    for pid, name in PROPS:
        real_statuses = [r["verdicts"][name]["status"] for r in valid]
        real_v = overall(real_statuses)
        sim_statuses = [s["verdicts"].get(name) for s in sim] if sim else []
        sim_v = overall(sim_statuses) if sim else "n/a"
        agree = None
        if sim and valid and real_v in ("holds", "violated"):
            agree = real_v == sim_v
            if not agree:
                disagreements.append(f"{pid} {name}: real {real_v}, sim {sim_v}"
                                     + _how_surprising(real_statuses, sim_statuses))
        witness = next((r["verdicts"][name]["witness"] for r in valid if r["verdicts"][name]["status"] == "violated"),
                       None)
        rows.append({"id": pid, "property": name, "real": real_v,
                     "real_violated": real_statuses.count("violated"), "real_unknown": real_statuses.count("unknown"),
                     "real_runs": len(real_statuses), "sim": sim_v,
                     "sim_violated": sim_statuses.count("violated"), "sim_runs": len(sim_statuses),
                     "agree": agree, "real_witness": witness})
    mags = []
    for m in experiment.magnitudes:
        mags.append({"name": m, "label": magnitudes.label(m, experiment.roles),
                     "real": _range([r["magnitudes"][m] for r in valid]),
                     "sim": _range([s["magnitudes"][m] for s in sim]) if sim else None})
    checks = _check_rows(valid)
    return {"experiment": experiment.name, "scenario": experiment.scenario, "variant": variant,
            "reps": len(real_reps), "valid_reps": len(valid), "check": checks,
            "problems": sorted({p for r in real_reps for p in r["problems"]}),
            "seeds": len(sim) if sim else 0, "sim_error": sim_error, "sim_command": sim[0]["command"] if sim else None,
            "properties": rows, "magnitudes": mags, "disagreements": disagreements,
            "comparable": bool(sim) and bool(valid)}


def _check_rows(valid: list[dict]) -> dict:
    """judge.py against locksim check over the valid repetitions: per property the counts, and what differed."""
    reps = [r for r in valid if r.get("history") is not None]
    checked = [r for r in reps if r["history"]["checked"]]
    errors = sorted({r["history"]["error"] for r in reps if r["history"]["error"]})
    rows, disagreements = [], []
    for pid, name in PROPS:
        counts = {"agree": 0, "disagree": 0, "undecided": 0}
        notes = []
        for r in checked:
            a = r["history"]["against_judge"][name]
            counts[a["agreement"]] += 1
            if a["agreement"] == "disagree":
                disagreements.append(f"rep {r['rep']} {pid} {name}: judge.py {a['judge']}, locksim check {a['check']} "
                                     f"({a['note']})")
            elif a["agreement"] == "undecided" and a["note"] not in notes:
                notes.append(a["note"])
        rows.append({"id": pid, "property": name, **counts, "checked": len(checked), "notes": notes})
    refused = sorted({r["history"]["error"] for r in reps if r["history"]["refused"]})
    return {"checked": len(checked), "reps": len(reps), "errors": errors, "refused": refused, "rows": rows,
            "disagreements": disagreements}


def render(result: dict) -> str:
    out = []
    r = result
    out.append(f"== {r['experiment']}: scenarios/{r['scenario']} --variant {r['variant']}  "
               f"({r['valid_reps']}/{r['reps']} real repetitions count, {r['seeds']} simulated seeds)")
    for p in r["problems"]:
        out.append(f"   note: {p}")
    if r["sim_error"]:
        out.append(f"   simulation not compared: {r['sim_error']}")
    out.append(f"   {'property':<22} {'real':<28} {'simulated':<28} ")
    for p in r["properties"]:
        real = f"{p['real']} (V {p['real_violated']}/{p['real_runs']}" + (
            f", ? {p['real_unknown']}" if p["real_unknown"] else "") + ")"
        if p["sim_runs"]:
            rate = 100.0 * p["sim_violated"] / p["sim_runs"]
            sim = f"{p['sim']} (V {p['sim_violated']}/{p['sim_runs']}, {rate:.0f}%)"
        else:
            sim = "n/a"
        mark = {True: "agree", False: "DISAGREE", None: "-"}[p["agree"]]
        out.append(f"   {p['id'] + ' ' + p['property']:<22} {real:<28} {sim:<28} {mark}")
    out.append(f"   {'magnitude (s): min median max (runs)':<58} {'real':<30} simulated")
    for m in r["magnitudes"]:
        count = m["name"] in magnitudes.COUNTS
        out.append(f"   {m['label']:<58} {_fmt_range(m['real'], count):<30} {_fmt_range(m['sim'], count)}")
    for p in r["properties"]:
        if p["real_witness"]:
            out.append(f"   real {p['id']} witness (first violating rep): {p['real_witness']}")
    out += _render_check(r.get("check"))
    return "\n".join(out)


def _render_check(c: dict | None) -> list[str]:
    if not c or not c["reps"]:
        return []
    out = [f"   locksim check on each repetition's history ({c['checked']}/{c['reps']} checked), against judge.py:"]
    out += [f"   note: {e}" for e in c["errors"]]
    if not c["checked"]:
        return out
    for row in c["rows"]:
        parts = [f"agree {row['agree']}/{row['checked']}"]
        if row["undecided"]:
            parts.append(f"undecided {row['undecided']}")
        if row["disagree"]:
            parts.append(f"DISAGREE {row['disagree']}")
        out.append(f"   {row['id'] + ' ' + row['property']:<22} {', '.join(parts)}")
        out += [f"      undecided: {n}" for n in row["notes"]]
    out += [f"   DISAGREE judge.py/locksim check {d}" for d in c["disagreements"]]
    return out


def compare_all(groups, locksim: str, scenarios_dir: str, seeds: int, jobs: int = 2):
    """groups: [(experiment, variant, [record paths])] → (results, text, exit status)."""
    results, texts = [], []
    can_check = locksim_check.has_check(locksim)
    for experiment, variant, paths in groups:
        real = [judge_file(p, experiment, scenarios_dir, locksim, can_check) for p in paths]
        sim, err = None, None
        try:
            sim = simulated.run_seeds(locksim, os.path.join(scenarios_dir, experiment.scenario), variant, seeds,
                                      experiment.magnitudes, experiment.roles, jobs)
        except simulated.SimError as e:
            err = str(e)
        res = compare_one(experiment, variant, real, sim, err)
        res["real_reps"] = real
        results.append(res)
        texts.append(render(res))
    status, summary = summarise(results)
    return results, "\n\n".join(texts + [summary]), status


def summarise(results) -> tuple[int, str]:
    """(exit status, the summary's text): 1 on any disagreement, else 2 if anything went uncompared, else 0."""
    disagreements = [f"{r['experiment']} {r['variant']}: {d}" for r in results for d in r["disagreements"]]
    disagreements += [f"{r['experiment']} {r['variant']}: judge.py/locksim check {d}" for r in results
                      for d in (r.get("check") or {}).get("disagreements", [])]
    uncompared = [f"{r['experiment']} {r['variant']}" for r in results if not r["comparable"]]
    uncompared += [f"{r['experiment']} {r['variant']}: {e}" for r in results for e in (r.get("check") or {}).get("refused", [])]
    lines = ["== summary"]
    lines += [f"   DISAGREE {d}" for d in disagreements] or ["   every compared verdict agrees"]
    lines += [f"   NOT COMPARED {u}" for u in uncompared]
    status = 1 if disagreements else (2 if uncompared else 0)
    lines.append(f"   exit status {status}")
    return status, "\n".join(lines)


def write(results, text, out_dir: str) -> None:
    with open(os.path.join(out_dir, "summary.txt"), "w") as f:
        f.write(text + "\n")
    with open(os.path.join(out_dir, "summary.json"), "w") as f:
        json.dump(results, f, indent=1)
