// First paint before computation: for each query, the time from navigation
// to (a) the first paint of the view's placeholder ("Computing …", marked
// aria-busy) when the view defers its work, and (b) ready (the view's content
// is there and nothing is aria-busy), as bench.mjs defines it.
//
//   node scripts/browser/first-paint.mjs [--dist DIR] [--loads 3] [query …]
//
// Without queries it measures the large case of every view (common.mjs) and
// a few larger ones. A benchmark, not a test: it never fails on a time.
import path from 'node:path';
import { serve, launch, median, REPO, VIEWS } from './common.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args.splice(i, 2)[1] : dflt;
};
const DIST = path.resolve(opt('dist', path.join(REPO, 'dist')));
const LOADS = Number(opt('loads', 3));
const SHARDS32 = Array.from({ length: 32 }, (_, k) => 400 + 100 * k).join(',');
const QUERIES = args.length ? args : [
  ...VIEWS.map((v) => v.large),
  'view=topology&nodes=16&gpus=16&alg=hier',
  `view=sgd&shards=${SHARDS32}&d=10&steps=1000`,
  'view=cost&p=65536',
];

const PROBE = `
  (() => {
    const check = () => {
      const m = document.querySelector('main');
      if (!m) return;
      if (window.__placeholderAt === undefined && m.querySelector('.computing[aria-busy="true"]')) {
        window.__placeholderAt = performance.now();
      }
      if (window.__readyAt === undefined && m.querySelector('svg, table, article, textarea')
          && !document.querySelector('[aria-busy="true"]')) {
        window.__readyAt = performance.now();
      }
    };
    new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
    const tick = () => { check(); if (window.__readyAt === undefined) requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  })();
`;

const fmt = (x) => (Number.isFinite(x) ? x.toFixed(0) : '–');

const main = async () => {
  const server = await serve(DIST);
  const browser = await launch();
  console.log(`# ${DIST}; medians of ${LOADS} loads; ms from navigation`);
  console.log('| query | placeholder painted | fcp | ready |');
  console.log('| --- | --- | --- | --- |');
  for (const q of QUERIES) {
    const ph = []; const fcp = []; const ready = [];
    for (let i = 0; i < LOADS; i++) {
      const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      await ctx.addInitScript(PROBE);
      const page = await ctx.newPage();
      await page.goto(`${server.url}/index.html?${q}`, { waitUntil: 'load' });
      await page.waitForFunction(() => window.__readyAt !== undefined, null, { timeout: 60000 }).catch(() => {});
      const r = await page.evaluate(() => ({
        ph: window.__placeholderAt, ready: window.__readyAt,
        fcp: (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime,
      }));
      ph.push(r.ph); fcp.push(r.fcp); ready.push(r.ready);
      await ctx.close();
    }
    console.log(`| \`${q}\` | ${fmt(median(ph))} | ${fmt(median(fcp))} | ${fmt(median(ready))} |`);
  }
  await browser.close();
  await server.close();
};

main().catch((e) => { console.error(e); process.exit(1); });
