// Browser benchmark: Collective Lab's release dist/ against the peer
// (../shared/peer/gpu-comm-visualizer), in one headless-Chromium run.
//
//   node scripts/browser/bench.mjs [--dist DIR] [--peer DIR] [--loads 5] [--steps 10]
//
// Prints the gzipped transfer of one page of each view (each view loads its
// own wasm binary) and of the peer; then, for the ring all-reduce at p = 4
// and p = 64: first contentful paint, ready, and one step (click → next frame), each as
// a median, with the ratio us / peer, and the floor of the step measure (a
// blank page that changes one number); then the ready time of every view at
// its default and at a large drawn size, and the ready time of each case the
// issue sets a target for (ring at p = 1024, collectives at p = 64, gossip on
// every graph at p = 1024); then the timeline cases (below) and the
// training-step cases A and B: numbers shown and tuner done (below). A
// benchmark, not a test: it never fails on a time.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { serve, launch, median, REPO, VIEWS } from './common.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1] : dflt;
};
const DIST = path.resolve(opt('dist', path.join(REPO, 'dist')));
const PEER = path.resolve(opt('peer', path.join(REPO, '..', 'shared', 'peer', 'gpu-comm-visualizer')));
const LOADS = Number(opt('loads', 5));
const STEPS = Number(opt('steps', 10));
// `--only timeline`: just the timeline cases (ready and step at p = 4 and 64,
// k = 1 and 64) and the ring at p = 1024 with its clock panel; `--only
// step`: just the training-step cases; `--only ring`: just the transfers
// and the ring all-reduce beside the peer (first paint, ready, step).
const ONLY = opt('only', '');

// What one page load downloads, gzip -9 bytes per file type, from the
// responses the browser received (each view loads its own wasm binary).
async function transfer(browser, url) {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  const bodies = [];
  page.on('response', (r) => bodies.push(r.body().then((b) => [r.url(), b]).catch(() => null)));
  await page.goto(url, { waitUntil: 'networkidle' });
  const out = { wasm: 0, js: 0, css: 0, html: 0, other: 0 };
  for (const got of await Promise.all(bodies)) {
    if (!got) continue;
    const [u, body] = got;
    const file = new URL(u).pathname;
    const kind = file.endsWith('.wasm') ? 'wasm' : file.endsWith('.js') ? 'js'
      : file.endsWith('.css') ? 'css' : (file.endsWith('.html') || file.endsWith('/')) ? 'html' : 'other';
    out[kind] += zlib.gzipSync(body, { level: 9 }).length;
  }
  out.all = out.wasm + out.js + out.css + out.html + out.other;
  await ctx.close();
  return out;
}

// Records when the page first looks ready, and the first contentful paint.
// Ours: the view's content (an svg, table or article inside <main>) is there
// and nothing is marked aria-busy. The peer: a canvas exists.
const READY_PROBE = `
  (() => {
    const ours = () => {
      const m = document.querySelector('main');
      return !!m && !!m.querySelector('svg, table, article, textarea') && !document.querySelector('[aria-busy="true"]');
    };
    const peer = () => !!document.querySelector('canvas');
    const check = () => {
      if (window.__readyAt === undefined && (window.__peer ? peer() : ours())) {
        window.__readyAt = performance.now();
      }
    };
    new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
    const tick = () => { check(); if (window.__readyAt === undefined) requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  })();
`;

async function load(browser, url, isPeer) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await ctx.addInitScript(`window.__peer = ${isPeer}; ${READY_PROBE}`);
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => window.__readyAt !== undefined, null, { timeout: 60000 }).catch(() => {});
  const r = await page.evaluate(() => ({
    ready: window.__readyAt,
    fcp: (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime,
  }));
  return { page, ctx, errors, ...r };
}

async function steps(page, selector, resetSelector, n) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const t = await page.evaluate(async ([sel, reset]) => {
      let b = document.querySelector(sel);
      if (!b) return NaN;
      if (b.disabled && reset) {
        const r = document.querySelector(reset);
        if (r) r.click();
        await new Promise((res) => requestAnimationFrame(() => setTimeout(res, 0)));
        b = document.querySelector(sel);
      }
      const t0 = performance.now();
      b.click();
      await new Promise((res) => requestAnimationFrame(() => setTimeout(res, 0)));
      return performance.now() - t0;
    }, [selector, resetSelector]);
    times.push(t);
    await page.waitForTimeout(30);
  }
  return median(times);
}

// The floor of the step measure: a blank page whose "Step forward" button
// changes one number. Click → next frame waits for the next frame, on
// average half a frame at 60 Hz, before any rendering, so no page can score
// below this; a step's own work is its time above the floor.
async function floor(browser) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  await page.setContent('<button aria-label="Step forward" onclick="this.nextElementSibling.textContent = String(Number(this.nextElementSibling.textContent) + 1)">step</button><p>0</p>');
  const t = await steps(page, 'button[aria-label="Step forward"]', null, STEPS);
  await ctx.close();
  return t;
}

async function measure(browser, base, q, isPeer) {
  const fcp = [], ready = [];
  let step = NaN;
  for (let i = 0; i < LOADS; i++) {
    const r = await load(browser, `${base}/index.html?${q}`, isPeer);
    fcp.push(r.fcp);
    ready.push(r.ready);
    if (i === LOADS - 1) {
      step = isPeer
        ? await steps(r.page, '.b.bs', null, STEPS)
        : await steps(r.page, 'button[aria-label="Step forward"]', 'button[aria-label="First step"]', STEPS);
    }
    await r.ctx.close();
  }
  return { fcp: median(fcp), ready: median(ready), readyAll: ready, step };
}

// The ready targets of the issue: ring at p = 1024, collectives
// (Rabenseifner) at p = 64, and gossip on every graph at p = 1024.
const READY_TARGETS = [
  'view=ring&p=1024&size=64MB',
  'view=collectives&alg=rab&p=64&size=64MB',
  ...['ring', 'path', 'star', 'complete', 'torus', 'hypercube', 'exp', 'random']
    .map((g) => `view=gossip&graph=${g}&p=1024`),
];

const fmt = (x) => (Number.isFinite(x) ? x.toFixed(1) : 'n/a');
// The fastest and slowest of `xs`, as a table cell.
const span = (xs) => `${fmt(Math.min(...xs))} – ${fmt(Math.max(...xs))}`;
const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${(a / b).toFixed(2)}×` : 'n/a');

// The timeline's targets: ready ≤ 300 ms at p = 64, k = 1, and a step ≤ 16.7 ms.
const TIMELINE_CASES = [
  'view=timeline&alg=ring&p=4&size=100MB&bw=12.5GB/s&alpha=0us',
  'view=timeline&alg=ring&p=64&size=64MB',
  'view=timeline&alg=ring&p=64&size=64MB&segments=64',
  'view=ring&p=1024&size=64MB',
];

// `--cases 'q1|q2'` replaces the timeline cases (with `--only timeline`).
const CASES = opt('cases', '');

async function timeline(browser, url) {
  console.log(`# ${browser.version()}; ${LOADS} loads each, ready and one step (click → next frame) in ms`);
  console.log('| query | ready median | ready min – max | step median |');
  console.log('| --- | --- | --- | --- |');
  for (const q of CASES ? CASES.split('|') : TIMELINE_CASES) {
    const r = await measure(browser, url, q, false);
    const xs = r.readyAll.filter(Number.isFinite);
    console.log(`| \`${q}\` | ${fmt(r.ready)} | ${span(xs)} | ${fmt(r.step)} |`);
  }
}

// The training-step view (issue 23): the time from navigation start until
// the step's numbers are on the page (#step-time) and until the bucket tuner
// has finished (#tuner-best), and whether the tuner's progress bar was shown
// meanwhile. The tuner's panel is aria-busy while it runs, so the generic
// ready above (nothing aria-busy) is the tuner's time on this view.
const STEP_CASES = {
  A: 'view=step&p=8&alg=ring&bw=12.5GB/s&alpha=0us&layers=4&params=25M&dtype=fp32&fwd=0ms&bwd=10ms',
  B: 'view=step&p=16&alg=ring&alpha=20us&bw=12.5GB/s&layers=100&params=1M&dtype=fp32&fwd=25ms&bwd=0.5ms',
  'B, p = 256': 'view=step&p=256&alg=ring&alpha=20us&bw=12.5GB/s&layers=100&params=1M&dtype=fp32&fwd=25ms&bwd=0.5ms',
};
const STEP_PROBE = `
  (() => {
    const check = () => {
      const now = performance.now();
      if (window.__numbers === undefined && document.querySelector('#step-time')) window.__numbers = now;
      if (document.querySelector('#tuner progress')) window.__progress = true;
      if (window.__tuner === undefined && document.querySelector('#tuner-best')) window.__tuner = now;
    };
    new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
    const tick = () => { check(); if (window.__tuner === undefined) requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  })();
`;

async function stepView(browser, url) {
  console.log(`# training step view; ${LOADS} loads each, medians and min – max, ms from navigation start`);
  console.log('| case | numbers shown | min – max | tuner done | min – max | progress shown |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const [name, q] of Object.entries(STEP_CASES)) {
    const nums = [], tun = [];
    let progress = false;
    for (let k = 0; k < LOADS; k++) {
      const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      await ctx.addInitScript(STEP_PROBE);
      const page = await ctx.newPage();
      await page.goto(`${url}/index.html?${q}`, { waitUntil: 'load' });
      await page.waitForFunction(() => window.__tuner !== undefined, null, { timeout: 60000 }).catch(() => {});
      const r = await page.evaluate(() => ({ n: window.__numbers, t: window.__tuner, p: !!window.__progress }));
      nums.push(r.n); tun.push(r.t); progress = progress || r.p;
      await ctx.close();
    }
    console.log(`| ${name} | ${fmt(median(nums))} | ${span(nums)} | ${fmt(median(tun))} | ${span(tun)} | ${progress ? 'yes' : 'no'} |`);
  }
}

const main = async () => {
  if (!fs.existsSync(path.join(DIST, 'index.html'))) {
    console.error(`no ${DIST}/index.html: run \`trunk build --release\` first`);
    process.exit(2);
  }
  if (ONLY === 'timeline' || ONLY === 'step') {
    const us = await serve(DIST);
    const browser = await launch();
    await (ONLY === 'timeline' ? timeline : stepView)(browser, us.url);
    await browser.close();
    await us.close();
    return;
  }
  const us = await serve(DIST);
  const them = await serve(PEER);
  const browser = await launch();
  const peer = await transfer(browser, `${them.url}/index.html?op=allreduce&alg=ring&gpu=4`);
  console.log('# gzipped transfer of one page load (gzip -9 of every response), bytes');
  console.log(`peer: js ${peer.js} + css ${peer.css} + html ${peer.html} + other ${peer.other} = ${peer.all}; target ≤ 2 × peer js = ${2 * peer.js}`);
  console.log('| page | wasm | js | css | html | other | total | total / peer js |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const v of VIEWS) {
    const t = await transfer(browser, `${us.url}/index.html?view=${v.view}`);
    console.log(`| ${v.view} | ${t.wasm} | ${t.js} | ${t.css} | ${t.html} | ${t.other} | ${t.all} | ${ratio(t.all, peer.js)} |`);
  }
  console.log(`# ${browser.version()}; medians of ${LOADS} loads and ${STEPS} steps; ms`);
  console.log('| ring all-reduce | peer | us | ratio |');
  console.log('| --- | --- | --- | --- |');
  for (const p of [4, 64]) {
    const a = await measure(browser, them.url, `op=allreduce&alg=ring&gpu=${p}&chunk=${p}&speed=1667`, true);
    const b = await measure(browser, us.url, `view=ring&p=${p}&size=100MB`, false);
    console.log(`| first contentful paint, p = ${p} | ${fmt(a.fcp)} | ${fmt(b.fcp)} | ${ratio(b.fcp, a.fcp)} |`);
    console.log(`| ready, p = ${p} | ${fmt(a.ready)} | ${fmt(b.ready)} | ${ratio(b.ready, a.ready)} |`);
    console.log(`| step, click → next frame, p = ${p} | ${fmt(a.step)} | ${fmt(b.step)} | ${ratio(b.step, a.step)} |`);
  }
  if (ONLY === 'ring') {
    await browser.close();
    await us.close();
    await them.close();
    return;
  }
  {
    const b = await measure(browser, us.url, 'view=ring&p=256&size=100MB', false);
    console.log(`| step, click → next frame, p = 256 | – | ${fmt(b.step)} | – |`);
  }
  {
    const f = await floor(browser);
    console.log(`| step floor: the same measure on a page whose button changes one number | ${fmt(f)} | ${fmt(f)} | – |`);
  }
  console.log('\n# ready time of every view (median of loads), ms');
  console.log('| view | default | large | large query |');
  console.log('| --- | --- | --- | --- |');
  for (const v of VIEWS) {
    const d = await measure(browser, us.url, `view=${v.view}`, false);
    const l = await measure(browser, us.url, v.large, false);
    console.log(`| ${v.view} | ${fmt(d.ready)} | ${fmt(l.ready)} | \`${v.large}\` |`);
  }
  console.log('\n# the ready targets (≤ 300 ms): median, and the fastest and slowest load, ms');
  console.log('| query | median | min – max |');
  console.log('| --- | --- | --- |');
  for (const q of READY_TARGETS) {
    const r = await measure(browser, us.url, q, false);
    const xs = r.readyAll.filter(Number.isFinite);
    console.log(`| \`${q}\` | ${fmt(r.ready)} | ${span(xs)} |`);
  }
  console.log('');
  await timeline(browser, us.url);
  console.log('');
  await stepView(browser, us.url);
  await browser.close();
  await us.close();
  await them.close();
};

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
