// Browser sweep: drives headless Chromium through random and adversarial
// URLs across all views, presses keys and buttons on each page, and checks
// that (1) the page is never blank, (2) no uncaught error or
// "RuntimeError: unreachable" reaches the console, (3) the panic box never
// appears, and (4) the view is ready within 2 s or says the case is too large.
//
//   node scripts/browser/sweep.mjs [--dist DIR] [--count 320] [--seed 1]
//   node scripts/browser/sweep.mjs --short    # 40 URLs: what scripts/test.sh runs
//
// The views are checked against src/bin (every view has its keys below).
// Exits non-zero when any URL fails; prints each failure with its URL.
import path from 'node:path';
import fs from 'node:fs';
import { serve, launch, REPO, checkViews } from './common.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1] : dflt;
};
const DIST = path.resolve(opt('dist', path.join(REPO, 'dist')));
const COUNT = Number(opt('count', args.includes('--short') ? 40 : 320));
let state = Number(opt('seed', 1)) >>> 0 || 1;

// xorshift32: deterministic, so a failing URL can be reproduced by seed.
const rnd = () => {
  state ^= state << 13; state >>>= 0;
  state ^= state >>> 17;
  state ^= state << 5; state >>>= 0;
  return state / 4294967296;
};
const pick = (xs) => xs[Math.floor(rnd() * xs.length)];

const KEYS = {
  ring: ['p', 'size', 'step', 'bw', 'alpha', 'mean', 'count'],
  collectives: ['alg', 'p', 'size', 'step', 'bw', 'alpha', 'gpus'],
  cost: ['alg', 'p', 'alpha', 'beta', 'bw', 'gamma', 'size', 'preset'],
  gossip: ['graph', 'p', 'weights', 'init', 'round', 'target', 'seed', 'rows', 'cols'],
  sgd: ['shards', 'losses', 'mode', 'iid', 'steps', 'step', 'lr', 'batch', 'd', 'decay', 'graph', 'weights', 'seed'],
  topology: ['alg', 'nodes', 'gpus', 'racks', 'groups', 'size', 'n', 'intra_bw', 'intra_alpha', 'inter_bw', 'inter_alpha', 'core_bw', 'lanes', 'step'],
  practice: ['set', 'q', 'seed', 'reveal', 'embed'],
  measure: ['example'],
  timeline: ['alg', 'p', 'size', 'bw', 'alpha', 'gamma', 'segments', 'late', 'slow', 'fail', 'mode', 't'],
  step: ['p', 'alg', 'bw', 'alpha', 'layers', 'params', 'dtype', 'fwd', 'bwd', 'mode', 'optim', 'bucket', 'straggler', 'fail', 'graph', 'h'],
  trace: ['alg', 'p', 'size', 'segments', 'bw', 'alpha', 'gamma', 'show'],
  hang: ['show', 'embed'],
};
const GOOD = {
  show: ['profile', 'input,answer', 'answer', 'bogus', ''],
  p: ['2', '4', '8', '64', '256', '1024', '6', '3'],
  size: ['100MB', '64MiB', '8KiB', '1GB', '1B', '12parsecs', '1e308B', '-5MB'],
  bw: ['12.5GB/s', '100Gb/s', '450GB/s', '0GB/s', '1e-300B/s'],
  alpha: ['5us', '0us', '1ms', '2ns', '-1us', '5µs'],
  alg: ['ring', 'tree', 'rd', 'rh', 'rab', 'naive', 'rs', 'ag', 'hier', 'flat', 'multilane', 'rat', 'flex', 'RAB'],
  graph: ['ring', 'complete', 'star', 'path', 'torus', 'hypercube', 'random', 'grid'],
  weights: ['uniform', 'mh', 'metropolis', 'maxdegree', 'lazy'],
  init: ['0,3,6,9', '1,2,3', '', ','],
  shards: ['600,300,100', '5,3', '0,0', '1'],
  losses: ['0.2,0.5,0.9', '1.2,1.3', 'NaN,1'],
  groups: ['2,3', '1,1', '8,8,8', '0,2'],
  set: ['course', 'drill', 'bogus'],
  q: ['1', '8', 'ring_rounds', 'loss', 'xyz', '99'],
  nodes: ['1', '2', '8', '16', '0', '100'],
  gpus: ['1', '4', '8', '3', '0'],
  racks: ['1', '2', '3'],
  lanes: ['1', '4', '9'],
  mode: ['allreduce', 'dpsgd', 'local', 'x', 'both', 'dataflow', 'lockstep', 'zero2', 'fsdp', 'gossip'],
  example: ['1', 'ring', 'tree'],
  segments: ['1', '4', '16', '0', '1000000'],
  late: ['2:5ms', '0:1s', '9:5ms', '2:-1ms'],
  slow: ['1:2', '3:0.5', '1:0'],
  fail: ['1:2ms', '0:0s', '3:7'],
  gamma: ['0ns/B', '1ns/B', '-1ns/B'],
  t: ['0ms', '5ms', '1e9s'],
  layers: ['1', '4', '100', '0', '5000'],
  params: ['25M', '1M', '0', '1T'],
  dtype: ['fp32', 'bf16', 'fp64', 'int3'],
  fwd: ['0ms', '25ms', '-1ms'],
  bwd: ['10ms', '0.5ms', '1ms,2ms'],
  optim: ['adam', 'sgd', '-1'],
  bucket: ['25MiB', '1B', '0'],
  straggler: ['3:0.5', '0:2', '99:1'],
  h: ['1', '4', '0'],
};
const ADVERSARIAL = [
  '', '-0', 'NaN', 'inf', '-inf', '1e308', '1e-308', '9'.repeat(40), '0x10', '٣', '½',
  '\u202Eevil', '%00', '%', '%%41', '<img src=x onerror=alert(1)>', '"><script>alert(1)</script>',
  '𝟘', 'ＭＢ', '１２', '  4  ', '4,', ',,,', // A long list (the native fuzz tests cover 10,000 elements; a URL of
  // that length exceeds what static servers accept in a request line).
  Array.from({ length: 1000 }, (_, i) => i % 7).join(','),
  'mb', 'MB', 'Mb', 'mB', 'MIB', 'mib', 'KIB', 'kib', 'GBPS', 'gb/S', 'µS', 'US', 'NS', 'MS',
];

function randomQuery() {
  const view = pick(Object.keys(KEYS));
  const pairs = [['view', view]];
  const n = 1 + Math.floor(rnd() * 5);
  for (let i = 0; i < n; i++) {
    const r = rnd();
    const key = r < 0.85 ? pick(KEYS[view]) : pick(['zz', 'VIEW', 'p', 'embed', '']);
    const value = r < 0.5 && GOOD[key] ? pick(GOOD[key]) : pick(ADVERSARIAL);
    pairs.push([key, value]);
    if (rnd() < 0.1) pairs.push([key, pick(ADVERSARIAL)]); // repeated key
  }
  if (rnd() < 0.05) pairs[0][1] = pick(['bench', 'RING', '', 'nope']);
  return pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
}

const main = async () => {
  checkViews(Object.keys(KEYS), 'sweep.mjs KEYS');
  if (!fs.existsSync(path.join(DIST, 'index.html'))) {
    console.error(`no ${DIST}/index.html: run \`trunk build --release\` first`);
    process.exit(2);
  }
  const server = await serve(DIST);
  const browser = await launch();
  const queries = [];
  // Every view's default first, then random ones.
  for (const v of Object.keys(KEYS)) queries.push(`view=${v}`);
  while (queries.length < COUNT) queries.push(randomQuery());
  const failures = [];
  let ctx = null;
  const t0 = Date.now();
  for (let i = 0; i < queries.length; i++) {
    if (i % 25 === 0) {
      if (ctx) await ctx.close();
      ctx = await browser.newContext({ viewport: { width: rnd() < 0.3 ? 375 : 1280, height: 900 } });
    }
    const page = await ctx.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(`uncaught: ${String(e).slice(0, 200)}`));
    page.on('console', (m) => {
      const t = m.text();
      if (m.type() === 'error' || /RuntimeError|unreachable/.test(t)) problems.push(`console: ${t.slice(0, 200)}`);
    });
    const url = `${server.url}/index.html?${queries[i]}`;
    const start = Date.now();
    try {
      await page.goto(url, { waitUntil: 'load', timeout: 20000 });
      const ok = await page
        .waitForFunction(() => {
          const m = document.querySelector('main');
          // A view whose page opens on a file chooser (hang, trace's
          // profile panel) is ready when the chooser is there.
          const ready = m && m.querySelector('svg, table, article, textarea, input[type="file"], .field-error') && !document.querySelector('[aria-busy="true"]');
          const tooLarge = /too large/i.test(document.body.innerText);
          return ready || tooLarge;
        }, null, { timeout: 2000 })
        .then(() => true, () => false);
      if (!ok) problems.push(`not ready within 2 s (${Date.now() - start} ms) and no "too large" message`);
      for (const k of ['ArrowRight', 'ArrowRight', ' ', 'ArrowLeft', 'End', 'Home']) await page.keyboard.press(k);
      const buttons = await page.$$('main button:not([disabled])');
      for (let b = 0; b < Math.min(4, buttons.length); b++) {
        await buttons[Math.floor(rnd() * buttons.length)].click({ timeout: 2000 }).catch(() => {});
      }
      await page.waitForTimeout(50);
      const text = (await page.evaluate(() => document.body.innerText)).trim();
      if (text.length < 20) problems.push('blank page');
      if (await page.$('.panic-box')) problems.push('panic box shown');
    } catch (e) {
      problems.push(`driver: ${String(e).slice(0, 200)}`);
    }
    if (problems.length) failures.push({ url: queries[i], problems });
    await page.close();
  }
  await ctx.close();
  await browser.close();
  await server.close();
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  for (const f of failures) console.log(`FAIL ?${f.url.slice(0, 300)}\n  ${f.problems.join('\n  ')}`);
  console.log(`${queries.length - failures.length} passed, ${failures.length} failed (${queries.length} URLs in ${secs} s)`);
  process.exit(failures.length ? 1 : 0);
};

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
