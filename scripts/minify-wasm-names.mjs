// Renames a binary's JS glue to match binaryen's minified import and export
// names. Run by scripts/hash-views.sh (Trunk's post_build hook) after
//
//   wasm-opt --minify-imports-and-exports-and-modules view_bg.wasm -o view_bg.wasm > map.json
//
// which gives every import of the wasm (`__wbg_select_6daf0a771fc1452a`:
// each name carries a 16-digit hash that gzip cannot shorten, and each
// appears in both files) a one- or two-letter name, puts every import in one
// module, and does the same for the exports, printing the old and new names.
// This script makes the glue use the new names:
//
// - the keys of the import object (`__wbg_…: function`) and its module name
//   (`"./view_bg.js": import0`);
// - the glue's reads of the exports (`wasm.__wbindgen_malloc`).
//
// It checks its work against the wasm itself (`WebAssembly.Module.imports`
// and `.exports`): every import the wasm asks for is a key of the object,
// every import key was renamed, every export the glue reads exists. Any
// mismatch fails the build, so a wasm-bindgen release that writes its glue
// differently stops here, not in the browser.
//
//   node scripts/minify-wasm-names.mjs view.js view_bg.wasm map.json
import { readFileSync, writeFileSync } from "node:fs";

const [jsPath, wasmPath, mapPath] = process.argv.slice(2);
if (!mapPath) {
  console.error("usage: node scripts/minify-wasm-names.mjs GLUE.js BINARY.wasm MAP.json");
  process.exit(2);
}
const fail = (why) => {
  console.error(`minify-wasm-names: ${jsPath}: ${why}`);
  process.exit(1);
};
const map = JSON.parse(readFileSync(mapPath, "utf8"));
const wasm = new WebAssembly.Module(readFileSync(wasmPath));
const imports = WebAssembly.Module.imports(wasm);
const exports = new Set(WebAssembly.Module.exports(wasm).map((e) => e.name));
const modules = new Set(imports.map((i) => i.module));
if (modules.size !== 1) fail(`expected one import module after minifying, found ${[...modules].join(", ")}`);
const [module] = modules;
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
let js = readFileSync(jsPath, "utf8");

// The import object: `    __wbg_select_6daf0a771fc1452a: function(arg0) {`.
const oldModules = new Set();
for (const [from, name, to] of map.imports) {
  oldModules.add(from);
  const key = new RegExp(`(?<=[\\s,{])${escape(name)}(?=\\s*:)`, "g");
  const found = js.match(key)?.length ?? 0;
  if (found !== 1) fail(`import ${name}: ${found} keys in the glue, expected 1`);
  js = js.replace(key, to);
}
for (const from of oldModules) {
  const literal = new RegExp(`(["'])${escape(from)}\\1(?=\\s*:)`, "g");
  if (!literal.test(js)) fail(`no import module "${from}" in the glue`);
  js = js.replace(literal, JSON.stringify(module));
}
// The exports, read as `wasm.<name>`.
for (const [from, to] of map.exports) {
  js = js.replace(new RegExp(`(?<=\\bwasm\\.)${escape(from)}(?![\\w$])`, "g"), to);
}

// Every import the wasm asks for is now a key, and the glue reads no export
// the wasm lacks.
const keys = new Set(map.imports.map(([, , to]) => to));
for (const i of imports) {
  if (!keys.has(i.name)) fail(`the wasm imports ${i.name}, which the map does not name`);
}
for (const [, name] of js.matchAll(/\bwasm\.([\w$]+)/g)) {
  if (!exports.has(name)) fail(`the glue reads wasm.${name}, which the wasm does not export`);
}
writeFileSync(jsPath, js);
