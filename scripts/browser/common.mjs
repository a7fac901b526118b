// Shared helpers for the headless-Chromium scripts: a static file server on
// loopback and a Chromium launched through playwright-core from Debian's
// /usr/bin/chromium (no browser download).
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.wasm': 'application/wasm',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.png': 'image/png',
};

/** Serves `root` (uncompressed) on 127.0.0.1 at a free port. Returns { url, close }. */
export async function serve(root) {
  const server = http.createServer((req, res) => {
    const u = new URL(req.url, 'http://x');
    let p = path.join(root, decodeURIComponent(u.pathname));
    if (!p.startsWith(root)) { res.writeHead(403).end(); return; }
    if (fs.existsSync(p) && fs.statSync(p).isDirectory()) p = path.join(p, 'index.html');
    fs.readFile(p, (err, data) => {
      if (err) { res.writeHead(404).end('not found'); return; }
      res.writeHead(200, {
        'Content-Type': TYPES[path.extname(p)] || 'application/octet-stream',
        'Cache-Control': 'no-store',
      });
      res.end(data);
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(r)) };
}

/** Launches Debian's Chromium headless with the flags this machine needs. */
export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic',
      '--no-first-run', '--disable-background-networking', '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export function median(xs) {
  const s = [...xs].filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (!s.length) return NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Where the repository is (this file lives in scripts/browser/). */
export const REPO = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

/** The views that have a binary: the stems of src/bin/*.rs (the list
 * tests/build_config.rs checks index.html and the loader against). */
export function binViews() {
  return fs.readdirSync(path.join(REPO, 'src', 'bin'))
    .filter((f) => f.endsWith('.rs'))
    .map((f) => f.slice(0, -3))
    .sort();
}

/** Throws unless `views` names exactly the views of src/bin (`what` says whose list). */
export function checkViews(views, what) {
  const want = binViews().join(' ');
  const have = [...views].sort().join(' ');
  if (have !== want) throw new Error(`${what} lists the views "${have}", src/bin has "${want}"`);
}

/** Every view of the app with its default query and a large drawn case. */
export const VIEWS = [
  { view: 'ring', large: 'view=ring&p=1024&size=64MB' },
  { view: 'collectives', large: 'view=collectives&alg=rab&p=64&size=64MB' },
  { view: 'cost', large: 'view=cost&p=1024&size=64MiB' },
  { view: 'gossip', large: 'view=gossip&graph=random&p=1024' },
  { view: 'sgd', large: 'view=sgd&steps=1000' },
  { view: 'topology', large: 'view=topology&nodes=8&gpus=8' },
  { view: 'timeline', large: 'view=timeline&alg=ring&p=64&size=64MB' },
  { view: 'step', large: 'view=step&p=16&alg=ring&alpha=20us&bw=12.5GB/s&layers=100&params=1M&dtype=fp32&fwd=25ms&bwd=0.5ms' },
  { view: 'practice', large: 'view=practice&set=drill&seed=7' },
  { view: 'measure', large: 'view=measure&example=outliers' },
  { view: 'trace', large: 'view=trace&alg=ring&p=64&size=64MB' },
  { view: 'hang', large: 'view=hang' },
];
