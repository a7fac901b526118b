#!/usr/bin/env python3
"""Where a page's wasm bytes go, before and after: the tables of docs/size.md.

    python3 scripts/size_report.py BEFORE_DIR AFTER_DIR > docs/size.md

Each directory holds one `<view>_bg.wasm` per view as wasm-bindgen writes
it before wasm-opt (with its names section; Trunk leaves them in
target/wasm-bindgen/release/). For every view: the bytes by crate (and by
module of ours), and the 20 largest items after, from `twiggy top` (shallow
bytes; wasm-opt later shrinks the code by about a tenth, the shares hold).
Needs twiggy (`cargo install twiggy`).
"""

import csv
import io
import os
import re
import subprocess
import sys
from collections import Counter

GROUPS = [
    (r"^\"?data segment|^data\[", "data (texts, tables, panic locations)"),
    (r"CompStateInner<COMP> as .*Stateful>::view", "yew: component bodies (our markup)"),
    (r"collective_lab::(core|app|params|plot|export)(::[a-z_]+)?", None),
    (r"yew|implicit_clone|indexmap", "yew"),
    (r"plotters", "plotters"),
    (r"nalgebra|simba|matrixmultiply", "nalgebra"),
    (r"serde", "serde, serde_json"),
    (r"flt2dec|dec2flt|fmt::float|bignum", "std float formatting and parsing"),
    (r"slice::sort", "std sort"),
    (r"core::fmt|::fmt::", "std fmt"),
    (r"hashbrown|BTreeMap|btree", "std maps"),
    (r"dlmalloc|__rust_(alloc|dealloc|realloc)", "allocator"),
    (r"libm|compiler_builtins", "libm, compiler builtins"),
    (r"wasm_bindgen|js_sys|web_sys|gloo|^\"?import ", "wasm-bindgen, js-sys, web-sys, gloo"),
    (r".", "std and the rest"),
]


def rows(path):
    out = subprocess.run(
        ["twiggy", "top", "-n", "1000000", "-f", "csv", path],
        capture_output=True, text=True, check=True,
    ).stdout
    for r in list(csv.reader(io.StringIO(out)))[1:]:
        if len(r) < 2 or "function names" in r[0]:
            continue
        yield r[0], int(r[1])


def group(name):
    for pat, label in GROUPS:
        m = re.search(pat, name)
        if m:
            if label is None:
                return "ours: " + m.group(1) + (m.group(2) or "")
            return label
    return "std and the rest"


def by_group(path):
    c = Counter()
    for name, b in rows(path):
        c[group(name)] += b
    return c


def short(name):
    name = re.sub(r"::h[0-9a-f]{16}$", "", name)
    name = re.sub(r"\[[0-9a-f]{16}\]", "", name)
    return (name[:110] + "…") if len(name) > 111 else name


def main():
    before_dir, after_dir = sys.argv[1], sys.argv[2]
    views = sorted(f[: -len("_bg.wasm")] for f in os.listdir(after_dir) if f.endswith("_bg.wasm"))
    print("## By crate and module, every page (shallow bytes before wasm-opt)\n")
    for v in views:
        b = by_group(os.path.join(before_dir, v + "_bg.wasm"))
        a = by_group(os.path.join(after_dir, v + "_bg.wasm"))
        print(f"### {v}\n")
        print("| group | before | after | change |")
        print("| --- | ---: | ---: | ---: |")
        keys = sorted(set(a) | set(b), key=lambda k: -max(a[k], b[k]))
        for k in keys[:18]:
            print(f"| {k} | {b[k]:,} | {a[k]:,} | {a[k] - b[k]:+,} |")
        print(f"| **total** | **{sum(b.values()):,}** | **{sum(a.values()):,}** | **{sum(a.values()) - sum(b.values()):+,}** |\n")
        top = sorted(rows(os.path.join(after_dir, v + "_bg.wasm")), key=lambda r: -r[1])[:20]
        print(f"The 20 largest items of `{v}` after:\n")
        print("| bytes | item |")
        print("| ---: | --- |")
        for name, size in top:
            print(f"| {size:,} | `{short(name)}` |")
        print()


if __name__ == "__main__":
    main()
