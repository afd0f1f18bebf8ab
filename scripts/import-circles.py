#!/usr/bin/env python3
"""Import circles between the modules of the library crates: prints each circle and exits 1 if
there is any (`.ci/run` calls it).

A module's imports are the `crate::a::b` paths in its source outside comments and test modules
(`use super::…` reaches only the parent, which is not a circle). An import between a module
and one of its ancestors or descendants does not count: a parent declares its children, and a
child may use what its parent defines. Items the crate root re-exports (`crate::Name`) count as
the root's, which is everyone's ancestor. Modules are named by file: `layered/file.rs` is
`layered::file`, `network/mod.rs` is `network`.
"""

import os
import re
import sys

CRATES = ["nnue-format/src", "nnue-runtime/src", "nnue-macros/src"]
TEST_MODULE = re.compile(r"#\[cfg\(test\)\]\s*(?:pub(?:\(crate\))?\s+)?mod \w+\s*\{")
PATH = re.compile(r"\bcrate::([a-z_0-9]+(?:::[a-z_0-9]+)*)")


def module_name(rel):
    name = rel[: -len(".rs")].replace(os.sep, "::")
    name = re.sub(r"(^|::)mod$", "", name)
    return "" if name == "lib" else name


def imports(src_dir):
    graph = {}
    for folder, _, files in os.walk(src_dir):
        for f in files:
            if not f.endswith(".rs"):
                continue
            path = os.path.join(folder, f)
            text = TEST_MODULE.split(open(path, encoding="utf-8").read())[0]
            text = "\n".join(line for line in text.split("\n") if not line.strip().startswith("//"))
            deps = set()
            for p in PATH.findall(text):
                parts = p.split("::")
                deps.update("::".join(parts[:i]) for i in range(1, len(parts) + 1))
            graph[module_name(os.path.relpath(path, src_dir))] = deps
    related = lambda a, b: a == b or b == "" or a == "" or a.startswith(b + "::") or b.startswith(a + "::")
    return {m: {d for d in deps if d in graph and not related(m, d)} for m, deps in graph.items()}


def circles(graph):
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    bad = 0
    for crate in CRATES:
        graph = imports(os.path.join(root, crate))
        for component in circles(graph):
            bad += 1
            print(f"import circle in {crate}: " + ", ".join(component))
            for m in component:
                print(f"    {m or 'lib'} -> " + ", ".join(sorted(d for d in graph[m] if d in component)))
    print(f"import-circles: {bad} circles in {len(CRATES)} crates")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
