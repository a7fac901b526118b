// Screenshots of views at 375 and 1440 px, for looking at what was built:
//   node scripts/browser/shots.mjs DIST OUTDIR 'view=ring' 'view=cost&proto=mpi' …
// Each query is opened on DIST served locally; a full-page PNG per width is
// written to OUTDIR as <query>-<width>.png once the page has rendered.
import fs from 'node:fs';
import path from 'node:path';
import { serve, launch } from './common.mjs';

const [dist, out, ...queries] = process.argv.slice(2);
if (!dist || !out || queries.length === 0) {
  console.error('usage: node scripts/browser/shots.mjs DIST OUTDIR QUERY…');
  process.exit(2);
}
fs.mkdirSync(out, { recursive: true });
const server = await serve(path.resolve(dist));
const browser = await launch();
let failed = 0;
for (const q of queries) {
  for (const width of [375, 1440]) {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${server.url}/index.html?${q}`);
    await page.waitForSelector('.view', { timeout: 60000 }).catch(() => errors.push('no .view'));
    await page.waitForTimeout(1500);
    const name = `${q.replace(/[^a-z0-9=]+/gi, '_')}-${width}.png`;
    await page.screenshot({ path: path.join(out, name), fullPage: true });
    if (errors.length) {
      failed += 1;
      console.log(`${name}: ${errors.join('; ')}`);
    } else {
      console.log(name);
    }
    await page.close();
  }
}
await browser.close();
await server.close();
process.exit(failed ? 1 : 0);
