// Temporary: ready time and step time of the timeline view (not committed).
import path from 'node:path';
import { serve, launch, median, REPO } from './common.mjs';
const PROBE = `
  (() => {
    const ok = () => { const m = document.querySelector('main');
      return !!m && !!m.querySelector('svg.gantt') && !document.querySelector('[aria-busy="true"]'); };
    const first = () => { const m = document.querySelector('main'); return !!m && !!m.querySelector('svg.gantt'); };
    const check = () => {
      if (window.__chartAt === undefined && first()) window.__chartAt = performance.now();
      if (window.__readyAt === undefined && ok()) window.__readyAt = performance.now();
    };
    new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
    const tick = () => { check(); if (window.__readyAt === undefined) requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  })();`;
const us = await serve(path.join(REPO, 'dist'));
const browser = await launch();
for (const q of process.argv.slice(2)) {
  const ready = [], chart = []; let step = [];
  for (let i = 0; i < 3; i++) {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await ctx.addInitScript(PROBE);
    const page = await ctx.newPage();
    await page.goto(`${us.url}/index.html?${q}`, { waitUntil: 'load' });
    await page.waitForFunction(() => window.__readyAt !== undefined, null, { timeout: 120000 }).catch(() => {});
    const r = await page.evaluate(() => ({ ready: window.__readyAt, chart: window.__chartAt }));
    ready.push(r.ready); chart.push(r.chart);
    if (i === 2) {
      for (let s = 0; s < 10; s++) {
        step.push(await page.evaluate(async () => {
          const b = document.querySelector('button[aria-label="Step forward"]');
          const t0 = performance.now(); b.click();
          await new Promise((res) => requestAnimationFrame(() => setTimeout(res, 0)));
          return performance.now() - t0;
        }));
      }
    }
    await ctx.close();
  }
  console.log(`${q}: chart ${median(chart).toFixed(0)} ms, ready ${median(ready).toFixed(0)} ms, step ${median(step).toFixed(1)} ms`);
}
await browser.close(); await us.close();
