// Browser benchmark of the training-step view (issue 23): for cases A and B,
// the time from navigation start until the step's numbers are on the page
// (#step-time) and until the bucket tuner has finished (#tuner-best), and
// whether the tuner's progress bar was shown meanwhile. Medians of 5 loads.
//
//   node scripts/browser/bench-step.mjs [--dist DIR]
//
// A benchmark, not a test: it never fails on a time.
import path from 'node:path';
import { serve, launch, median, REPO } from './common.mjs';

const args = process.argv.slice(2);
const i = args.indexOf('--dist');
const DIST = path.resolve(i >= 0 ? args[i + 1] : path.join(REPO, 'dist'));
const CASES = {
  A: 'view=step&p=8&alg=ring&bw=12.5GB/s&alpha=0us&layers=4&params=25M&dtype=fp32&fwd=0ms&bwd=10ms',
  B: 'view=step&p=16&alg=ring&alpha=20us&bw=12.5GB/s&layers=100&params=1M&dtype=fp32&fwd=25ms&bwd=0.5ms',
  'B, p = 256': 'view=step&p=256&alg=ring&alpha=20us&bw=12.5GB/s&layers=100&params=1M&dtype=fp32&fwd=25ms&bwd=0.5ms',
};
const PROBE = `
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

const main = async () => {
  const us = await serve(DIST);
  const browser = await launch();
  console.log(`# ${browser.version()}; step view, medians of 5 loads, ms from navigation start`);
  console.log('| case | numbers shown | tuner done | progress shown |');
  console.log('| --- | --- | --- | --- |');
  for (const [name, q] of Object.entries(CASES)) {
    const nums = [], tun = [];
    let progress = false;
    for (let k = 0; k < 5; k++) {
      const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      await ctx.addInitScript(PROBE);
      const page = await ctx.newPage();
      await page.goto(`${us.url}/index.html?${q}`, { waitUntil: 'load' });
      await page.waitForFunction(() => window.__tuner !== undefined, null, { timeout: 60000 }).catch(() => {});
      const r = await page.evaluate(() => ({ n: window.__numbers, t: window.__tuner, p: !!window.__progress }));
      nums.push(r.n); tun.push(r.t); progress = progress || r.p;
      await ctx.close();
    }
    console.log(`| ${name} | ${median(nums).toFixed(1)} | ${median(tun).toFixed(1)} | ${progress ? 'yes' : 'no'} |`);
  }
  await browser.close();
  await us.close();
};
main().catch((e) => { console.error(e); process.exit(1); });
