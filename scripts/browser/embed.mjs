// The course-page example (dist/embed-example.html, issue 25) in headless
// Chromium at 1280 px and 390 px: each frame's height must equal its
// document's scroll height (within 2 px) after load, after stepping forward
// three times and after a resize to the other width, with no inner
// scrollbar. In the ring's frame the first Tab stop must be the first control
// of the shown panels, and →, space, ↑ and ↓ must never scroll the host page.
//
//   node scripts/browser/embed.mjs        # after `trunk build --release`
//
// Prints one line per check; exits non-zero on a failure.
import fs from 'node:fs';
import path from 'node:path';
import { serve, launch, REPO } from './common.mjs';

const DIST = path.join(REPO, 'dist');
if (!fs.existsSync(path.join(DIST, 'embed-example.html'))) {
  console.error('no dist/embed-example.html: run `trunk build --release` first');
  process.exit(1);
}
const WIDTHS = [1280, 390];
const TOLERANCE = 2;
let failures = 0;
const check = (ok, what) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures += 1;
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Every frame's height, its document's scroll height and its scrollbars. */
function frames(page) {
  return page.evaluate(() => [...document.querySelectorAll('iframe')].map((f) => {
    const win = f.contentWindow;
    const d = f.contentDocument && f.contentDocument.documentElement;
    const name = new URLSearchParams((f.getAttribute('src') || '').split('?')[1]).get('view');
    if (!d) return { name, ready: false };
    return {
      name,
      ready: !!f.contentDocument.querySelector('.shell:not(.boot) .view')
        && !f.contentDocument.querySelector('[aria-busy="true"]'),
      frame: f.clientHeight,
      scroll: d.scrollHeight,
      vbar: win.innerWidth - d.clientWidth,
      hbar: win.innerHeight - d.clientHeight,
      wide: d.scrollWidth - d.clientWidth,
    };
  }));
}

/** Waits until every frame has rendered and its height held still for 300 ms. */
async function settle(page) {
  let last = '';
  let still = 0;
  for (let i = 0; i < 150; i += 1) {
    const fs_ = await frames(page);
    const key = JSON.stringify(fs_);
    if (fs_.every((f) => f.ready) && key === last) {
      still += 1;
      if (still >= 3) return fs_;
    } else {
      still = 0;
    }
    last = key;
    await sleep(100);
  }
  return frames(page);
}

async function expectFit(page, when) {
  const list = await settle(page);
  for (const f of list) {
    const fits = f.ready && Math.abs(f.frame - f.scroll) <= TOLERANCE;
    check(fits, `${when}: ${f.name} frame ${f.frame} px, document ${f.scroll} px`);
    check(f.ready && f.vbar === 0 && f.hbar === 0 && f.wide <= 1,
      `${when}: ${f.name} has no inner scrollbar (vertical ${f.vbar}, horizontal ${f.hbar}, overflow ${f.wide})`);
  }
}

/** The ring's frame: Tab order and keys that must not scroll the host. */
async function keyboard(page) {
  const ring = page.frames().find((fr) => fr.url().includes('view=ring'));
  if (!ring) { check(false, 'ring frame found'); return; }
  // Tab from the lesson's heading (the start of sequential focus navigation).
  await page.click('h1');
  await page.keyboard.press('Tab');
  const tab = await ring.evaluate(() => {
    const first = [...document.querySelectorAll('button, input, select, textarea, a[href], [tabindex]')]
      .find((e) => !e.disabled && e.tabIndex >= 0 && e.getClientRects().length > 0);
    const active = document.activeElement;
    return {
      same: !!first && active === first,
      inPanel: !!active?.closest('[data-panel]'),
      label: active ? (active.getAttribute('aria-label') || active.textContent || active.tagName).trim() : '(none)',
    };
  });
  check(tab.same && tab.inPanel, `first Tab stop in the ring frame is the first control of its panels (“${tab.label}”)`);
  await ring.click('#narration');
  const y0 = await page.evaluate(() => window.scrollY);
  for (const key of ['Home', 'ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowLeft', 'ArrowDown', 'ArrowUp', ' ', ' ']) {
    await page.keyboard.press(key);
    await sleep(60);
  }
  const y1 = await page.evaluate(() => window.scrollY);
  const label = await ring.textContent('.scrub span');
  check(label.includes('Step 2 of'), `Home → → → ← step the ring frame (“${label}”)`);
  check(y0 === y1, `Home, →, ←, ↓, ↑ and space leave the host page where it was (scrollY ${y0} → ${y1})`);
}

/**
 * Every frame's links that leave it (another view or case without
 * embed=1): a click opens a new tab, and the frame keeps its page (the
 * lesson's case) and keeps posting its height. One click per frame, on
 * its first such link; the count of such links per frame is printed.
 */
async function linksStay(page) {
  for (const fr of page.frames().filter((f) => f !== page.mainFrame())) {
    const before = fr.url();
    const leaving = await fr.evaluate(() => [...document.querySelectorAll('a[href]')]
      .filter((a) => !a.hasAttribute('download') && !a.target)
      .filter((a) => a.href.split('#')[0] !== location.href.split('#')[0])
      .filter((a) => !/[?&]embed=(1|true|yes|on)(&|#|$)/i.test(a.href))
      .map((a, i) => { a.dataset.leaving = String(i); return a.href; }));
    if (leaving.length === 0) continue;
    const popup = page.waitForEvent('popup', { timeout: 10000 }).catch(() => null);
    await fr.locator('a[data-leaving="0"]').click();
    const tab = await popup;
    check(tab !== null, `${new URL(before).search}: a link out of the frame (${leaving.length} such) opens a new tab`);
    if (tab) await tab.close();
    await sleep(300);
    check(fr.url() === before, `${new URL(before).search}: the frame keeps its page after the click (${fr.url()})`);
  }
  await expectFit(page, 'after clicking a link out of every frame');
}

const server = await serve(DIST);
const browser = await launch();
try {
  for (const width of WIDTHS) {
    const other = WIDTHS.find((w) => w !== width);
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    page.on('pageerror', (e) => check(false, `page error at ${width} px: ${e.message}`));
    await page.goto(`${server.url}/embed-example.html`);
    await expectFit(page, `${width} px, loaded`);
    for (const fr of page.frames().filter((f) => f !== page.mainFrame())) {
      const forward = fr.locator('button[aria-label="Step forward"]');
      if (await forward.count() === 0) continue;
      for (let i = 0; i < 3; i += 1) await forward.first().click();
    }
    await expectFit(page, `${width} px, three steps`);
    await page.setViewportSize({ width: other, height: 900 });
    await expectFit(page, `${width} → ${other} px`);
    if (width === WIDTHS[0]) await keyboard(page);
    if (width === WIDTHS[0]) await linksStay(page);
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
}
console.log(failures ? `${failures} embed check(s) failed` : 'embed example: every check passed');
process.exit(failures ? 1 : 0);
