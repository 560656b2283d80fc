// The interactive timeline's page logic: hands the lanes and items that
// analysis/timeline_html_data.py computed to vis-timeline, and adds what
// vis-timeline does not know about — lane toggles, the violation list, and
// highlighting the items a witness names. Drawing, zoom, pan and tooltips
// are vis-timeline's own.
//
// Time: vis-timeline counts in milliseconds of a Date; a run's events are
// microseconds apart, so one unit on its axis is one microsecond of true
// time (data.unit_ns = 1000). Every label is formatted here from that unit,
// never by Date, so no time zone or calendar leaks in.
(function () {
  "use strict";

  function formatTime(units, unitNs, span) {
    // span (in units) decides the precision: enough digits to tell ticks apart.
    const seconds = (units * unitNs) / 1e9;
    const spanSeconds = (span * unitNs) / 1e9;
    const digits = spanSeconds >= 10 ? 0 : spanSeconds >= 1 ? 1 : spanSeconds >= 0.1 ? 2 : spanSeconds >= 0.01 ? 3
      : spanSeconds >= 0.001 ? 4 : 6;
    return seconds.toFixed(Math.max(digits, 0)) + " s";
  }

  function mount(root, data) {
    const vis = window.vis;
    const el = (tag, cls, text) => {
      const e = document.createElement(tag);
      if (cls) e.className = cls;
      if (text !== undefined) e.textContent = text;
      return e;
    };

    const controls = el("div", "lt-controls");
    const lanesBox = el("div", "lt-lanes");
    const violationsBox = el("div", "lt-violations");
    const canvas = el("div", "lt-canvas");
    const readout = el("div", "lt-readout");
    controls.append(lanesBox, violationsBox);
    root.append(controls, readout, canvas);

    const groups = new vis.DataSet(data.groups.map((g, i) => ({
      id: g.id, content: g.content, title: g.title, order: i, className: "lt-lane lt-lane-" + g.kind,
    })));
    const items = new vis.DataSet(data.items.map((it) => {
      const out = {
        id: it.id, group: it.group, start: it.start, content: it.content, title: it.title,
        type: it.type, className: it.className,
      };
      if (it.end !== undefined && it.end !== null) out.end = it.end;
      return out;
    }));

    const unitNs = data.unit_ns;
    let visibleSpan = data.end - data.start;
    const label = (date) => formatTime(date.valueOf(), unitNs, visibleSpan / 10);
    // Opens on where things happened (a run often idles to its end); the
    // whole run is a zoom out or a drag away. Set once the first draw is
    // done, not as the start/end options: vis-timeline takes a start of 0
    // for no start, and would then keep its loading screen over the lanes.
    const timeline = new vis.Timeline(canvas, items, groups, {
      onInitialDrawComplete: () => timeline.setWindow(data.start, data.view_end, { animation: false }),
      min: data.start,
      max: data.end,
      zoomMin: 1,
      stack: true,
      selectable: true,
      multiselect: true,
      showCurrentTime: false,
      showMajorLabels: false,
      orientation: { axis: "both" },
      margin: { item: { horizontal: 0, vertical: 3 } },
      groupOrder: "order",
      moment: (d) => vis.moment(d).utc(),
      format: { minorLabels: label, majorLabels: () => "" },
      tooltip: { followMouse: true, overflowMethod: "cap", delay: 50 },
    });

    function showWindow() {
      const w = timeline.getWindow();
      visibleSpan = w.end.valueOf() - w.start.valueOf();
      readout.textContent = "true time " + formatTime(w.start.valueOf(), unitNs, visibleSpan / 1000) + " to " +
        formatTime(w.end.valueOf(), unitNs, visibleSpan / 1000) + " · scroll to zoom, drag to pan, " +
        "hover for fields, click a violation to see what its witness names";
    }
    timeline.on("rangechange", showWindow);
    timeline.on("rangechanged", showWindow);
    showWindow();

    // Violations: a red line across every lane at each first witness, and a
    // button that selects every item the witness names.
    const byViolation = new Map(data.violations.map((v) => [v.id, v]));
    function highlight(v) {
      timeline.setSelection(v.items.concat([v.id]), { focus: false });
      for (const b of violationsBox.querySelectorAll("button")) b.classList.toggle("lt-active", b.dataset.id === v.id);
      root.dataset.highlighted = v.id;
    }
    if (data.violations.length === 0) {
      violationsBox.append(el("span", "lt-none", "No property violated in this run."));
    }
    // One red line per instant: witnesses at the same instant share it ("P1 P2").
    const lines = new Map();
    for (const v of data.violations) lines.set(v.start, (lines.get(v.start) || []).concat([v.property_id]));
    let line = 0;
    for (const [start, ids] of lines) {
      timeline.addCustomTime(start, "witness-" + line);
      timeline.setCustomTimeMarker(ids.join(" "), "witness-" + line, false);
      line += 1;
    }
    for (const v of data.violations) {
      const b = el("button", "lt-violation", v.property_id + " " + v.property + " at " + v.at);
      b.dataset.id = v.id;
      b.title = v.text;
      b.addEventListener("click", () => {
        highlight(v);
        timeline.focus(v.items.concat([v.id]), { animation: false });
      });
      violationsBox.append(b);
    }
    timeline.on("select", (props) => {
      const v = props.items.length === 1 ? byViolation.get(props.items[0]) : undefined;
      if (v) highlight(v);
    });

    // Lane toggles: one checkbox per lane, grouped by kind.
    const kinds = [];
    for (const g of data.groups) if (!kinds.includes(g.kind)) kinds.push(g.kind);
    for (const kind of kinds) {
      const box = el("fieldset", "lt-kind");
      box.append(el("legend", null, data.kind_names[kind] || kind));
      for (const g of data.groups.filter((x) => x.kind === kind)) {
        const lbl = el("label");
        const cb = el("input");
        cb.type = "checkbox";
        cb.checked = true;
        cb.dataset.lane = g.id;
        cb.addEventListener("change", () => groups.update({ id: g.id, visible: cb.checked }));
        lbl.append(cb, document.createTextNode(" " + g.name));
        box.append(lbl);
      }
      lanesBox.append(box);
    }

    return timeline;
  }

  window.LocksimTimeline = { mount: mount, formatTime: formatTime };
})();
