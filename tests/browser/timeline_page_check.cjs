// Drives Debian's Chromium (headless, through puppeteer-core) over one
// interactive timeline page and checks what a reviewer does with it: the
// page loads with no console error, every lane renders, hovering an item
// shows its tooltip, the wheel zooms, a violation's button selects the items
// its witness names, a lane can be hidden. Prints one JSON object of what it
// found; exit 0 when every check held, 1 otherwise (the failures say which).
//
// usage: node timeline_page_check.cjs PAGE.html SCREENSHOT.png
// env:   LOCKSIM_WEB (analysis/web, with node_modules), CHROMIUM (default /usr/bin/chromium)
"use strict";
const path = require("path");
const puppeteer = require(path.join(process.env.LOCKSIM_WEB, "node_modules", "puppeteer-core"));

async function main() {
  const [page_path, screenshot] = process.argv.slice(2);
  const failures = [];
  const found = {};
  const check = (ok, what) => { if (!ok) failures.push(what); };

  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 1400, height: 900 });
    const errors = [];
    page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
    page.on("pageerror", (e) => errors.push(String(e)));
    page.on("requestfailed", (r) => errors.push("request failed: " + r.url()));
    const requests = [];
    page.on("request", (r) => requests.push(r.url()));
    await page.goto("file://" + path.resolve(page_path), { waitUntil: "load" });
    try {
      await page.waitForSelector(".vis-timeline", { timeout: 10000 });
    } catch (e) {
      throw new Error("no timeline drew; console: " + errors.join(" | "));
    }

    // The page's first timeline (a review report holds one per variant).
    const rootId = await page.$eval(".lt-root", (e) => e.id);
    const data = await page.evaluate((id) => JSON.parse(document.getElementById(id + "-data").textContent), rootId);
    // The page sets its opening window once the first draw is done; items move there a frame or two later.
    try {
      await page.waitForFunction((id, end) => window.locksimTimelines && window.locksimTimelines[id] &&
        Math.abs(window.locksimTimelines[id].getWindow().end.valueOf() - end) <= 1, { timeout: 10000 }, rootId,
        data.view_end);
    } catch (e) {
      failures.push("the page never opened on the activity's end");
    }
    await new Promise((r) => setTimeout(r, 500));
    const within = (selector) => `#${rootId} ${selector}`;
    found.lanes_expected = data.groups.length;
    found.lanes_drawn = await page.$$eval(within(".vis-labelset .vis-label"), (ls) => ls.length);
    check(found.lanes_drawn === data.groups.length, `lanes: ${found.lanes_drawn} drawn, ${data.groups.length} expected`);
    const empty = await page.evaluate((groups, rootId) => groups.filter((g) => {
      const label = [...document.getElementById(rootId).querySelectorAll(".vis-labelset .vis-label")].find((l) => l.textContent.trim() === g.name);
      return !label;
    }).map((g) => g.name), data.groups, rootId);
    check(empty.length === 0, "lanes without a label: " + empty.join(", "));
    found.loading_screen = (await page.$(within(".vis-loading-screen"))) !== null;
    check(!found.loading_screen, "vis-timeline's loading screen still covers the lanes");
    const opened = await page.evaluate((id) => window.locksimTimelines[id].getWindow().end.valueOf(), rootId);
    check(Math.abs(opened - data.view_end) <= 1, `opened on ${opened}, not on the activity's end ${data.view_end}`);
    found.items_drawn = await page.$$eval(within(".vis-item"), (is) => is.length);
    check(found.items_drawn > 0, "no item drawn");

    // In a report the timeline may start below the fold: bring it into view as a reader would.
    await page.evaluate((id) => document.getElementById(id).scrollIntoView(), rootId);
    await new Promise((r) => setTimeout(r, 200));

    // Hover: a resource op (else any item) that is in view and on top where the pointer goes shows its tooltip.
    // Found again before every try: vis-timeline may still be restacking its lanes (they grow as it measures
    // their items), which moves the items down the page.
    const findTarget = () => page.evaluate((rootId) => {
      const root = document.getElementById(rootId);
      const center = root.querySelector(".vis-center").getBoundingClientRect();
      // Ops first, then anything; nearest the middle first (an item at an edge may put its tooltip off-page).
      const middle = (e) => Math.abs(e.getBoundingClientRect().left - (center.left + center.right) / 2);
      const byMiddle = (list) => [...list].sort((a, b) => middle(a) - middle(b));
      const all = [...byMiddle(root.querySelectorAll(".vis-item.lt-op")), ...byMiddle(root.querySelectorAll(".vis-item"))];
      for (const e of all) {
        const r = e.getBoundingClientRect();
        const x = r.left + r.width * 0.7, y = r.top + r.height / 2;  // on its label, clear of a witness line at its dot
        if (x < center.left || x > center.right || y < center.top || y > center.bottom) continue;
        const hit = document.elementFromPoint(x, y);
        if (hit && e.contains(hit)) return { x, y, what: e.className };
      }
      return null;
    }, rootId);
    found.tooltip = null;
    for (let attempt = 0; attempt < 4 && !found.tooltip; attempt++) {
      // As a person would: onto it, and if no tooltip shows, off and on again.
      const target = await findTarget();
      if (target === null) break;
      found.hovered = target.what;
      await page.mouse.move(2, 2);
      await new Promise((r) => setTimeout(r, 100));
      await page.mouse.move(target.x - 1, target.y);
      await page.mouse.move(target.x, target.y, { steps: 3 });
      try {
        await page.waitForFunction(() => {
          const t = document.querySelector(".vis-tooltip");
          return t && getComputedStyle(t).visibility !== "hidden" && t.offsetParent !== null && t.innerText.length > 10;
        }, { timeout: 1500 });
        found.tooltip = await page.evaluate(() => document.querySelector(".vis-tooltip").innerText);
      } catch (e) {
        found.hover_attempts = attempt + 1;
      }
    }
    check(found.hovered !== undefined, "no item in view to hover");
    if (found.hovered !== undefined) {
      check(found.tooltip && found.tooltip.length > 10, `hovering ${found.hovered} shows no tooltip`);
    }

    // Zoom: the wheel over the timeline narrows the visible window.
    const before = await page.evaluate((id) => { const w = window.locksimTimelines[id].getWindow(); return w.end - w.start; }, rootId);
    const box = await (await page.$(within(".vis-center"))).boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + 20);
    for (let i = 0; i < 3; i++) { await page.mouse.wheel({ deltaY: -240 }); await new Promise((r) => setTimeout(r, 150)); }
    await new Promise((r) => setTimeout(r, 400));
    const after = await page.evaluate((id) => { const w = window.locksimTimelines[id].getWindow(); return w.end - w.start; }, rootId);
    found.zoom = { before, after };
    check(after < before * 0.9, `the wheel did not zoom in (${before} -> ${after})`);
    await page.evaluate((id) => window.locksimTimelines[id].fit({ animation: false }), rootId);

    // A violation's button selects exactly the items its witness names.
    found.violations = data.violations.length;
    if (data.violations.length > 0) {
      const v = data.violations[0];
      await page.click(within(`button.lt-violation[data-id="${v.id}"]`));
      await new Promise((r) => setTimeout(r, 400));
      const selected = await page.evaluate((id) => window.locksimTimelines[id].getSelection(), rootId);
      found.highlighted = selected.length;
      const want = new Set(v.items.concat([v.id]));
      check(selected.length === want.size && selected.every((id) => want.has(id)),
        `violation ${v.property_id} selected ${selected.length} items, its witness names ${want.size}`);
      check(v.items.length > 0, `violation ${v.property_id} names no item`);
      found.highlighted_drawn = await page.$$eval(within(".vis-item.vis-selected"), (is) => is.length);
      check(found.highlighted_drawn > 0, "no highlighted item drawn");
      await page.evaluate((id) => window.locksimTimelines[id].fit({ animation: false }), rootId);
      await new Promise((r) => setTimeout(r, 300));
    }
    await page.screenshot({ path: screenshot, fullPage: true });

    // Hide a lane: its label goes.
    const lane = data.groups[data.groups.length - 1];
    await page.click(within(`input[data-lane="${lane.id}"]`));
    await new Promise((r) => setTimeout(r, 300));
    found.lanes_after_hiding = await page.$$eval(within(".vis-labelset .vis-label"), (ls) => ls.length);
    check(found.lanes_after_hiding === data.groups.length - 1, `hiding ${lane.name} left ${found.lanes_after_hiding} lanes`);

    found.errors = errors;
    check(errors.length === 0, "console errors: " + errors.join(" | "));
    found.remote = requests.filter((u) => !u.startsWith("file:") && !u.startsWith("data:"));
    check(found.remote.length === 0, "fetched from elsewhere: " + found.remote.join(", "));
  } finally {
    await browser.close();
  }
  found.failures = failures;
  console.log(JSON.stringify(found));
  process.exit(failures.length === 0 ? 0 : 1);
}

main().catch((e) => { console.log(JSON.stringify({ failures: ["crashed: " + (e && e.stack || e)] })); process.exit(1); });
