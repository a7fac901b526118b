// Accessibility and layout audit of every view in headless Chromium.
//
//   node scripts/browser/audit.mjs [--dist DIR] [--only axe|layout]
//
// axe: runs axe-core (npm) on every view at its default and at a large case,
// in the light and the dark colour scheme, and counts serious and critical
// violations; the start page (no view=) too. layout: at 375, 768 and 1440 px,
// checks that the header is at most 60 px tall at 375 px, that no panel, table,
// chart box or text block overflows its box (scrollWidth > clientWidth + 1)
// unless it sits inside a deliberate horizontal scroller (overflow-x auto or
// scroll, with the class table-scroll or an aria-label, as the visible cue).
// Exits non-zero when anything fails; prints every failure.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { serve, launch, REPO, VIEWS, checkViews } from './common.mjs';

const require = createRequire(import.meta.url);
const AXE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1] : dflt;
};
const DIST = path.resolve(opt('dist', path.join(REPO, 'dist')));
const ONLY = opt('only', 'all');

async function open(browser, url, width, scheme) {
  const ctx = await browser.newContext({ viewport: { width, height: 1000 }, colorScheme: scheme });
  const page = await ctx.newPage();
  await page.goto(url, { waitUntil: 'load' });
  await page
    .waitForFunction(() => {
      const m = document.querySelector('main');
      return m && m.querySelector('svg, table, article, .view-start') && !document.querySelector('[aria-busy="true"]');
    }, null, { timeout: 15000 })
    .catch(() => {});
  await page.waitForTimeout(100);
  return { ctx, page };
}

async function axe(browser, base, q, scheme) {
  const { ctx, page } = await open(browser, `${base}/index.html?${q}`, 1280, scheme);
  await page.addScriptTag({ content: AXE });
  const res = await page.evaluate(async () => {
    // eslint-disable-next-line no-undef
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, n: v.nodes.length, help: v.help,
      target: v.nodes.slice(0, 3).map((x) => x.target.join(' ')) }));
  });
  await ctx.close();
  return res;
}

async function layout(browser, base, q, width) {
  const { ctx, page } = await open(browser, `${base}/index.html?${q}`, width, 'light');
  const bad = await page.evaluate(() => {
    const scroller = (el) => {
      for (let e = el; e && e !== document.body; e = e.parentElement) {
        const s = getComputedStyle(e);
        if (['auto', 'scroll'].includes(s.overflowX) && (e.classList.contains('table-scroll') || e.hasAttribute('aria-label') || e.hasAttribute('tabindex'))) return true;
      }
      return false;
    };
    const out = [];
    const sel = '.panel, .panels, .chart-box, .controls, main table, main p, main h2, main h3, .narration, .phase, main article';
    for (const el of document.querySelectorAll(sel)) {
      if (el.offsetParent === null) continue;
      if (el.scrollWidth > el.clientWidth + 1 && !scroller(el)) {
        const id = el.id ? `#${el.id}` : '';
        const cls = el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
        out.push(`${el.tagName.toLowerCase()}${id}${cls}: scrollWidth ${el.scrollWidth} > clientWidth ${el.clientWidth}`);
      }
    }
    // On a phone the view list is one row: the header at most 60 px tall.
    const header = document.querySelector('.site-header');
    const tall = header && innerWidth <= 400 ? header.getBoundingClientRect().height : 0;
    if (tall > 60) out.push(`header: ${Math.round(tall)} px tall at ${innerWidth} px (at most 60)`);
    const page = document.documentElement;
    if (page.scrollWidth > page.clientWidth + 1) out.push(`page: scrollWidth ${page.scrollWidth} > ${page.clientWidth}`);
    return out;
  });
  await ctx.close();
  return bad;
}

const main = async () => {
  checkViews(VIEWS.map((v) => v.view), 'common.mjs VIEWS');
  if (!fs.existsSync(path.join(DIST, 'index.html'))) {
    console.error(`no ${DIST}/index.html: run \`trunk build --release\` first`);
    process.exit(2);
  }
  const server = await serve(DIST);
  const browser = await launch();
  let failures = 0, checks = 0;
  // The start page (no view=), then every view at its default and a large case.
  for (const qs of [['']].concat(VIEWS.map((v) => [`view=${v.view}`, v.large]))) {
    for (const q of qs) {
      if (ONLY !== 'layout') {
        for (const scheme of ['light', 'dark']) {
          const vs = await axe(browser, server.url, q, scheme);
          checks++;
          const serious = vs.filter((x) => x.impact === 'serious' || x.impact === 'critical');
          const minor = vs.length - serious.length;
          if (serious.length) {
            failures++;
            console.log(`AXE FAIL ?${q} (${scheme}):`);
            for (const s of serious) console.log(`  ${s.impact} ${s.id} ×${s.n}: ${s.help} [${s.target.join(' | ')}]`);
          } else {
            console.log(`axe ok   ?${q} (${scheme}): 0 serious/critical, ${minor} moderate/minor`);
          }
        }
      }
      if (ONLY !== 'axe') {
        for (const w of [375, 768, 1440]) {
          const bad = await layout(browser, server.url, q, w);
          checks++;
          if (bad.length) {
            failures++;
            console.log(`LAYOUT FAIL ?${q} at ${w} px:\n  ${bad.slice(0, 8).join('\n  ')}`);
          } else {
            console.log(`layout ok ?${q} at ${w} px`);
          }
        }
      }
    }
  }
  await browser.close();
  await server.close();
  console.log(`audit: ${checks - failures} passed, ${failures} failed`);
  process.exit(failures ? 1 : 0);
};

main().catch((e) => { console.error(e); process.exit(1); });
