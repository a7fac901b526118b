// Benchmark: one large profiler trace opened in the trace view's profiler
// panel, from dist/ (after `trunk build --release`):
//   python3 tests/fixtures/profiler/big.py /tmp/big.json 200   # 200 MB
//   node scripts/browser/bench_profile.mjs /tmp/big.json
// Prints the time from choosing the file to the answer, the progress lines
// seen, the longest main-thread task (a frozen page shows as one long
// task) and the peak resident memory of the browser's processes.
import path from 'node:path';
import { execSync } from 'node:child_process';
import { serve, launch } from './common.mjs';

const file = process.argv[2];
if (!file) {
  console.error('usage: node scripts/browser/bench_profile.mjs TRACE.json[.gz]');
  process.exit(2);
}
const rss = () => {
  try {
    const out = execSync("ps -eo rss,comm | grep -i chrom | awk '{s+=$1} END {print s}'").toString();
    return Number(out.trim()) * 1024;
  } catch { return 0; }
};
const server = await serve(path.resolve('dist'));
const browser = await launch();
const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
await page.goto(`${server.url}/index.html?view=trace&show=profile`);
await page.waitForSelector('#profile-files', { timeout: 60000 });
await page.evaluate(() => {
  window.__long = 0;
  new PerformanceObserver((l) => {
    for (const e of l.getEntries()) window.__long = Math.max(window.__long, e.duration);
  }).observe({ type: 'longtask', buffered: false });
});
const base = rss();
let peak = base;
const seen = new Set();
const t0 = Date.now();
await page.setInputFiles('#profile-files', file);
for (;;) {
  peak = Math.max(peak, rss());
  const p = await page.textContent('#profile-progress').catch(() => null);
  if (p) seen.add(p.replace(/\d+ %/, 'N %'));
  if (await page.$('#profile-answer')) break;
  if (await page.$('#profile .field-error')) break;
  if (Date.now() - t0 > 600000) { console.log('timed out'); break; }
  await page.waitForTimeout(200);
}
const t = Date.now() - t0;
const long = await page.evaluate(() => window.__long);
console.log(`answer after ${(t / 1000).toFixed(1)} s`);
console.log(`progress lines: ${[...seen].join(' | ')}`);
console.log(`longest main-thread task: ${long.toFixed(0)} ms`);
console.log(`browser RSS: ${(base / 2 ** 20).toFixed(0)} MiB before, ${(peak / 2 ** 20).toFixed(0)} MiB at peak`);
console.log((await page.textContent('#profile-answer').catch(() => '')) || (await page.textContent('#profile .field-error')));
await browser.close();
await server.close();
