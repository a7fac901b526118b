// Reads one profiler trace off the main thread: a worker (made from the
// function below through a Blob URL, so the build ships no extra file)
// streams the file, counts the bytes read for the progress line, undoes
// gzip with the browser's DecompressionStream, parses with JSON.parse and
// keeps, of every complete ("X") event, only the fields the Rust reader
// takes (src/core/profiler/wire.rs, read by src/app/views/trace/profile.rs)
// under their own names. On a trace with GPU kernels the CPU operators
// other than the step markers and autograd's backward operators are
// dropped: the core reads compute from kernels there.

function work() {
  const ARGS = ['stream', 'Collective name', 'In msg nelems', 'Out msg nelems', 'Group size',
    'dtype', 'Process Group Name', 'Process Group Ranks', 'Input Dims', 'Input type'];
  self.onmessage = async (m) => {
    const blob = m.data;
    let read = 0;
    let last = 0;
    try {
      const head = new Uint8Array(await blob.slice(0, 2).arrayBuffer());
      const gz = head[0] === 0x1f && head[1] === 0x8b;
      let s = blob.stream().pipeThrough(new TransformStream({
        transform(chunk, ctl) {
          read += chunk.byteLength;
          if (read - last > 4 << 20) {
            last = read;
            self.postMessage({ progress: read / blob.size });
          }
          ctl.enqueue(chunk);
        },
      }));
      if (gz) s = s.pipeThrough(new DecompressionStream('gzip'));
      let text;
      try {
        text = await new Response(s).text();
      } catch (e) {
        self.postMessage({ error: gz ? 'gzip' : 'read', message: String(e && e.message || e) });
        return;
      }
      self.postMessage({ progress: 1, parsing: true });
      let v;
      try {
        v = JSON.parse(text);
      } catch (e) {
        self.postMessage({ error: 'json', message: String(e && e.message || e), empty: !text.trim() });
        return;
      }
      text = null;
      const list = Array.isArray(v) ? v : (v && v.traceEvents);
      if (!Array.isArray(list)) {
        self.postMessage({ error: 'trace' });
        return;
      }
      const kernels = list.some((e) => e && e.ph === 'X' && e.cat === 'kernel');
      const events = [];
      for (const e of list) {
        if (!e || e.ph !== 'X') continue;
        if (kernels && e.cat !== 'kernel' && !(typeof e.name === 'string'
          && (e.name.startsWith('ProfilerStep#') || e.name.startsWith('autograd::engine::evaluate_function')))) continue;
        const a = e.args || {};
        const args = {};
        for (const k of ARGS) if (a[k] !== undefined) args[k] = a[k];
        events.push({ ph: 'X', name: e.name, cat: e.cat, ts: e.ts, dur: e.dur, tid: e.tid, args });
      }
      const d = (v && v.distributedInfo) || {};
      self.postMessage({
        done: {
          traceEvents: events,
          distributedInfo: { backend: d.backend, rank: d.rank, world_size: d.world_size, nccl_version: d.nccl_version },
        },
      });
    } catch (e) {
      self.postMessage({ error: 'read', message: String(e && e.message || e) });
    }
  };
}

// Resolves to { done } or { error, message }; calls progress(fraction,
// parsing) as the file is read.
export function readTrace(blob, progress) {
  return new Promise((resolve) => {
    let url;
    let w;
    try {
      url = URL.createObjectURL(new Blob(['(' + work.toString() + ')()'], { type: 'text/javascript' }));
      w = new Worker(url);
    } catch (e) {
      resolve({ error: 'read', message: 'this browser cannot start a worker: ' + String(e && e.message || e) });
      return;
    }
    const end = (r) => {
      w.terminate();
      URL.revokeObjectURL(url);
      resolve(r);
    };
    w.onmessage = (m) => {
      const r = m.data;
      if (r.progress !== undefined) {
        try { progress(r.progress, !!r.parsing); } catch (_) { /* the page went away */ }
        return;
      }
      end(r);
    };
    w.onerror = (e) => end({ error: 'read', message: String(e && e.message || 'the worker failed') });
    w.postMessage(blob);
  });
}
