#!/usr/bin/env python3
"""No import circle between a crate's modules.

Reads every crate's `src/**/*.rs`, resolves each `crate::…` and `super::…`
path (grouped `use` lists included) to the module it names, and fails when
two top-level modules of a crate, or two sibling modules inside a folder,
need each other. A module using its own parent or child is not a circle.

Usage: python3 .ci/import_cycles.py [--graph] [CRATE_DIR…]
"""
import re
import sys
from pathlib import Path

COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
STRING = re.compile(r'"(?:\\.|[^"\\])*"')
PATH_START = re.compile(r"\b(crate|super)((?:::super)*)::")


def module_of(src: Path, file: Path) -> list[str]:
    parts = list(file.relative_to(src).with_suffix("").parts)
    if parts[-1] in ("lib", "main", "mod"):
        parts = parts[:-1]
    return parts


def closing(text: str, i: int) -> int:
    """The index of the `}` that closes the `{` at text[i]."""
    depth, j = 0, i
    while j < len(text):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                break
        j += 1
    return j


def group_heads(text: str, i: int) -> list[list[str]]:
    """The paths a `{…}` group at text[i] == '{' names, as segment lists."""
    j = closing(text, i)
    body = text[i + 1 : j]
    items, depth, start = [], 0, 0
    for k, ch in enumerate(body):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == "," and depth == 0:
            items.append(body[start:k])
            start = k + 1
    items.append(body[start:])
    out = []
    for item in items:
        item = item.strip()
        if not item:
            continue
        segs = []
        for m in re.finditer(r"([A-Za-z_][A-Za-z0-9_]*)(\s*::\s*)?", item):
            segs.append(m.group(1))
            if not m.group(2):
                break
        brace = item.find("{")
        if brace >= 0 and item[:brace].rstrip().endswith("::"):
            prefix = [s for s in re.split(r"\s*::\s*", item[:brace].strip().rstrip(":").strip()) if s]
            for sub in group_heads(item, brace):
                out.append(prefix + sub)
        elif segs:
            out.append(segs)
    return out


TEST_MOD = re.compile(r"#\[cfg\(test\)\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([a-z]+\))?\s+)?mod\s+(\w+)\s*([;{])")


def without_tests(text: str) -> tuple[str, set[str]]:
    """The text without its `#[cfg(test)] mod … { … }` blocks, and the
    names of the test modules it declares in files of their own: test code
    may use any module of its crate."""
    files = set()
    while True:
        m = TEST_MOD.search(text)
        if not m:
            return text, files
        if m.group(2) == ";":
            files.add(m.group(1))
            text = text[: m.start()] + text[m.end() :]
            continue
        j = closing(text, m.end() - 1)
        text = text[: m.start()] + text[j + 1 :]


def targets(text: str, here: list[str]) -> list[list[str]]:
    """Every module path a file names, resolved from the crate root."""
    found = []
    for m in PATH_START.finditer(text):
        base = [] if m.group(1) == "crate" else here[:-1]
        for _ in range(m.group(2).count("super")):
            base = base[:-1]
        rest = m.end()
        if rest < len(text) and text[rest] == "{":
            for segs in group_heads(text, rest):
                found.append(base + segs)
        else:
            segs = re.match(r"[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*", text[rest:])
            if segs:
                found.append(base + segs.group(0).split("::"))
    return found


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def check_crate(crate: Path, show: bool) -> list[str]:
    src = crate / "src"
    modules = {tuple(module_of(src, f)) for f in src.rglob("*.rs")}
    # Edges between siblings: for a file in module M and a target T, the
    # first segments where they part, when both sit in the same parent.
    edges: dict[tuple, dict[str, set[str]]] = {}
    why: dict[tuple, str] = {}
    texts, test_modules = {}, set()
    for f in sorted(src.rglob("*.rs")):
        here = module_of(src, f)
        text, tests = without_tests(STRING.sub('""', COMMENT.sub("", f.read_text())))
        texts[f] = (here, text)
        test_modules |= {tuple(here + [t]) for t in tests}
    for f, (here, text) in texts.items():
        if any(tuple(here[:k]) in test_modules for k in range(1, len(here) + 1)):
            continue
        for t in targets(text, here):
            # The longest prefix of t that is a module.
            k = len(t)
            while k > 0 and tuple(t[:k]) not in modules:
                k -= 1
            t = t[:k]
            common = 0
            while common < min(len(here), len(t)) and here[common] == t[common]:
                common += 1
            if common >= len(here) or common >= len(t):
                continue  # parent, child or self
            parent = tuple(here[:common])
            a, b = here[common], t[common]
            edges.setdefault(parent, {}).setdefault(a, set()).add(b)
            why.setdefault((parent, a, b), str(f.relative_to(crate)))
    problems = []
    for parent, g in sorted(edges.items()):
        where = "::".join(("crate",) + parent)
        if show:
            for a in sorted(g):
                print(f"{crate.resolve().name} {where}: {a} -> {', '.join(sorted(g[a]))}")
        for comp in cycles(g):
            lines = [f"{crate.resolve().name}: import circle in {where} between {', '.join(comp)}:"]
            for a in comp:
                for b in comp:
                    if b in g.get(a, ()):
                        lines.append(f"  {a} uses {b} ({why[(parent, a, b)]})")
            problems.append("\n".join(lines))
    return problems


def main() -> int:
    args = sys.argv[1:]
    show = "--graph" in args
    dirs = [Path(a) for a in args if a != "--graph"]
    if not dirs:
        root = Path(__file__).resolve().parent.parent
        dirs = sorted(p.parent for p in root.glob("crates/*/Cargo.toml"))
    problems = []
    for d in dirs:
        problems += check_crate(d, show)
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
