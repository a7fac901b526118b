#!/usr/bin/env python3
"""Checks the links of README.md and every Markdown file under docs/.

Every relative link or image ([text](path), [text](path#anchor),
[text](#anchor)) must name a file of the repository, and an anchor must be
a heading of that file, slugged as GitHub slugs it (lower case; letters,
digits, spaces, hyphens and underscores kept; spaces become hyphens).
Links with a scheme (https:, mailto:) and links inside code blocks or code
spans are not checked. Also checks that every view of src/bin/ has its
page docs/views/<view>.md and that README.md links it. Prints every broken
link as file:line; exits 1 when there is one.

    python3 scripts/links.py
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def prose(text):
    """The lines of `text` outside fenced code blocks, code spans blanked."""
    fence = False
    for n, line in enumerate(text.split("\n"), 1):
        if line.lstrip().startswith("```"):
            fence = not fence
            continue
        if not fence:
            yield n, re.sub(r"`[^`]*`", lambda m: " " * len(m.group(0)), line)


def slugs(path):
    out = set()
    for _, line in prose(path.read_text(encoding="utf-8")):
        m = re.match(r"#{1,6}\s+(.*)", line)
        if m:
            out.add(slug(m.group(1)))
    # Headings keep their code spans for slugging: read them raw too.
    fence = False
    for line in path.read_text(encoding="utf-8").split("\n"):
        if line.lstrip().startswith("```"):
            fence = not fence
        elif not fence and re.match(r"#{1,6}\s", line):
            out.add(slug(re.sub(r"^#{1,6}\s+", "", line)))
    return out


def slug(heading):
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def main():
    files = [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))
    bad = []
    for f in files:
        for n, line in prose(f.read_text(encoding="utf-8")):
            for target in LINK.findall(line):
                if re.match(r"[a-z][a-z0-9+.-]*:", target):
                    continue
                path, _, anchor = target.partition("#")
                dest = (f.parent / path).resolve() if path else f
                where = f"{f.relative_to(ROOT)}:{n}"
                if not dest.exists():
                    bad.append(f"{where}: {target}: no such file")
                elif anchor and dest.suffix == ".md" and anchor not in slugs(dest):
                    bad.append(f"{where}: {target}: no heading #{anchor}")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for b in sorted((ROOT / "src" / "bin").glob("*.rs")):
        page = f"docs/views/{b.stem}.md"
        if not (ROOT / page).exists():
            bad.append(f"{page}: missing (every view of src/bin/ has its page)")
        elif f"]({page})" not in readme:
            bad.append(f"README.md: does not link {page}")
    for line in bad:
        print(f"BROKEN {line}")
    print(f"links: {len(files)} files, {len(bad)} broken")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
