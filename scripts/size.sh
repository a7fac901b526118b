#!/usr/bin/env bash
# Download size of the release build and where its wasm bytes go.
#
#   bash scripts/size.sh [view]     # after `. scripts/setup.sh && trunk build --release`
#
# 1. Raw and `gzip -9` bytes of every file in dist/.
# 2. What one page downloads, per view: its wasm binary and JS glue (one per
#    view, see src/bin/), the CSS, index.html and the icon, checked against
#    the page budget: 200 KB gzipped (gzip -9, 1 KB = 1000 B). A page that
#    is not there yet has an allowance in scripts/size-allowances (its size
#    when the budget was set, which only ever goes down); the script exits
#    non-zero when a page is over its allowance, or over the budget when it
#    has none.
#    A module a view loads on demand (modules/) is counted with its view as
#    one more page, "<view>+<module>". Where the case's first paint needs
#    the module (the ring's clock module: p > 64) that page is checked too;
#    where the module loads after the first paint (the step view's
#    time-to-quality run) its total is printed, not checked.
# 3. When twiggy is installed (`cargo install twiggy`): the wasm-bindgen
#    output of one view's binary before wasm-opt (default: ring; it keeps the
#    names section) grouped by crate and module, shallow bytes. wasm-opt
#    shrinks the code by about a third afterwards; the shares hold.
# It builds nothing and is not part of scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
VIEW="${1:-ring}"

[ -d dist ] || { echo "no dist/: run '. scripts/setup.sh && trunk build --release' first" >&2; exit 1; }
gz() { gzip -9c "$1" | wc -c; }
printf '%-40s %10s %10s\n' file raw gzip-9
for f in dist/*; do
  [ -f "$f" ] || continue
  printf '%-40s %10d %10d\n' "$(basename "$f")" "$(wc -c <"$f")" "$(gz "$f")"
done
shared=0
for f in dist/index.html dist/style-*.css dist/favicon-*.svg; do
  shared=$((shared + $(gz "$f")))
done
echo
BUDGET=200000
allowance() { # allowance VIEW: bytes a page may weigh
  local a
  a="$(awk -v v="$1" '$1 == v { print $2 }' scripts/size-allowances 2>/dev/null)"
  echo "${a:-$BUDGET}"
}
over=0
# report NAME BYTES [NOTE]: one page's line, checked against its limit.
report() {
  local limit verdict
  limit="$(allowance "$1")"
  verdict="within the budget"
  if [ "$2" -gt "$limit" ]; then
    verdict="OVER its limit of $limit B"
    over=1
  elif [ "$2" -gt "$BUDGET" ]; then
    verdict="over the budget, within its allowance of $limit B"
  fi
  awk -v v="$1" -v b="$2" -v w="$verdict${3:+ ($3)}" 'BEGIN { printf "%-12s %8d B  (%.1f KB)  %s\n", v, b, b / 1000, w }'
}
echo "one page, gzip -9 bytes (index.html + CSS + icon = $shared B, plus the view's JS and wasm):"
for bin in src/bin/*.rs; do
  v="$(basename "$bin" .rs)"
  js="$(ls dist/"$v".js dist/"$v"-*.js 2>/dev/null | head -n 1 || true)"
  wasm="$(ls dist/"$v"_bg.wasm dist/"$v"-*_bg.wasm 2>/dev/null | head -n 1 || true)"
  [ -n "$js" ] && [ -n "$wasm" ] || { echo "$v: no binary in dist/" >&2; continue; }
  report "$v" $((shared + $(gz "$js") + $(gz "$wasm")))
done
# A module a view loads on demand (modules/, the loader's `mods` table)
# adds to that view's page in the cases that show it. "check": the case's
# first paint needs it (the ring's clock numbers above the drawn size,
# p > 64), so "<view>+<module>" is one more page against the same budget
# and allowances. "after": it loads after the first paint (the step view's
# time-to-quality run), so the total is printed and not checked.
for pair in "check ring ringclock p > 64" "after step quality time to quality"; do
  set -- $pair
  kind="$1"; v="$2"; m="$3"; shift 3
  files=(dist/"$v"-*.js dist/"$v"-*_bg.wasm dist/"$m"-*.js dist/"$m"-*_bg.wasm)
  page=$shared
  for f in "${files[@]}"; do
    [ -f "$f" ] || { echo "$v+$m: $f not in dist/" >&2; over=1; continue 2; }
    page=$((page + $(gz "$f")))
  done
  if [ "$kind" = check ]; then
    report "$v+$m" "$page" "the $v page at $*"
  else
    awk -v v="$v+$m" -v b="$page" -v w="$*" 'BEGIN { printf "%-12s %8d B  (%.1f KB)  the page and its module (%s, after the first paint; not checked)\n", v, b, b / 1000, w }'
  fi
done
[ "$over" -eq 0 ] || { echo "a page is over its limit (budget $BUDGET B; scripts/size-allowances)" >&2; exit 1; }

named="target/wasm-bindgen/release/${VIEW}_bg.wasm"
if ! command -v twiggy >/dev/null 2>&1 || [ ! -f "$named" ]; then
  echo "(twiggy or $named missing: no breakdown)"
  exit 0
fi
echo
echo "where the bytes go ($named, before wasm-opt, shallow bytes):"
twiggy top -n 1000000 -f csv "$named" | node -e '
const rows = require("fs").readFileSync(0, "utf8").split("\n").slice(1);
const groups = [
  [/function names/, null],
  [/^"?data segment/, "data: .rodata (texts, tables, vtables, panic locations)"],
  [/^"?data\[/, "data: other segments"],
  [/CompStateInner<COMP> as .*Stateful>::view/, "app: component bodies inlined into yew CompStateInner::view"],
  [/collective_lab::app::views/, "collective_lab::app::views"],
  [/collective_lab::app::components/, "collective_lab::app::components"],
  [/collective_lab::core::([a-z_]+)/, "collective_lab::core::$1"],
  [/collective_lab::(params|plot|app)/, "collective_lab::$1"],
  [/plotters/, "plotters"],
  [/yew/, "yew (generic per-component and hook code)"],
  [/sort::(stable|unstable|shared)/, "core::slice::sort instances"],
  [/flt2dec|dec2flt|bignum|f64 as core/, "float formatting and parsing"],
  [/::fmt::/, "core::fmt"],
  [/wasm_bindgen|js_sys|web_sys|gloo|^"?import /, "wasm-bindgen, js-sys, web-sys, gloo"],
  [/serde|hashbrown|indexmap|nalgebra|form_urlencoded|dlmalloc/, "serde_json, hashbrown, indexmap, nalgebra, dlmalloc"],
  [/.*/, "Rust std (core, alloc) and the rest"],
];
const sums = new Map();
let total = 0;
for (const line of rows) {
  const m = line.match(/^(".*"|[^,]*),(\d+),/);
  if (!m) continue;
  const name = m[1], bytes = Number(m[2]);
  for (const [re, label] of groups) {
    const hit = name.match(re);
    if (!hit) continue;
    if (label !== null) {
      const key = label.replace("$1", hit[1] || "");
      sums.set(key, (sums.get(key) || 0) + bytes);
      total += bytes;
    }
    break;
  }
}
for (const [k, v] of [...sums].sort((a, b) => b[1] - a[1])) {
  console.log(`${String(v).padStart(10)} ${(100 * v / total).toFixed(1).padStart(5)} %  ${k}`);
}
console.log(`${String(total).padStart(10)} 100.0 %  total (names section excluded)`);
'
