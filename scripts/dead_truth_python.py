"""An independent ground truth of unused Python definitions for `deno task bench health`.

Vulture's rule, written with Python's own parser (`ast`), without tree-sitter and without
codemunch's index: a function, method or class is *unused* when its name is used nowhere in the
package tree outside its own body. A use is a name read (`f(...)`, `x = f`, `del f`), an attribute
(`obj.f`, in any context), an imported name (`from m import f`), a keyword argument's name, a
string constant that is the name or a dotted path ending in it (`getattr(o, "f")`,
`"pkg.mod.f"`, `__all__ = ["f"]`), or a decorator. Uses are by name, as vulture's: a `get`
used anywhere keeps every `get` alive, so the truth errs towards "used" and a precision measured
against it is a lower bound.

Usage: python3 dead_truth_python.py ROOT  ->  JSON [{file, name, kind, line, first_line,
end_line, used}] on stdout, one row per definition (paths relative to ROOT).
"""
import ast
import json
import os
import re
import sys

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class _Uses(ast.NodeVisitor):
    """Every used name of one module, with the line it is used on."""

    def __init__(self):
        self.uses = []  # (name, line)

    def visit_Name(self, node):
        if not isinstance(node.ctx, ast.Store):
            self.uses.append((node.id, node.lineno))

    def visit_Attribute(self, node):
        self.uses.append((node.attr, node.lineno))
        self.generic_visit(node)

    def visit_ImportFrom(self, node):
        for alias in node.names:
            self.uses.append((alias.name, node.lineno))

    def visit_keyword(self, node):
        if node.arg is not None:
            self.uses.append((node.arg, node.lineno))
        self.generic_visit(node)

    def visit_Constant(self, node):
        if isinstance(node.value, str) and len(node.value) < 200:
            for part in node.value.split("."):
                if _IDENT.fullmatch(part):
                    self.uses.append((part, node.lineno))


def _definitions(tree, rel):
    out = []

    def walk(node, in_class):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                is_class = isinstance(child, ast.ClassDef)
                first = min([child.lineno] + [d.lineno for d in child.decorator_list])
                out.append({
                    "file": rel,
                    "name": child.name,
                    "kind": "class" if is_class else ("method" if in_class else "function"),
                    "line": child.lineno,
                    "first_line": first,
                    "end_line": child.end_lineno,
                })
                walk(child, is_class)
            else:
                walk(child, in_class)

    walk(tree, False)
    return out


def main(root):
    defs = []
    uses = {}  # name -> [(file, line)]
    for dirpath, dirs, files in os.walk(root):
        dirs.sort()
        for f in sorted(files):
            if not f.endswith(".py"):
                continue
            path = os.path.join(dirpath, f)
            rel = os.path.relpath(path, root).replace(os.sep, "/")
            try:
                with open(path, encoding="utf-8") as fh:
                    tree = ast.parse(fh.read(), path)
            except (SyntaxError, UnicodeDecodeError, ValueError):
                continue
            defs.extend(_definitions(tree, rel))
            visitor = _Uses()
            visitor.visit(tree)
            for name, line in visitor.uses:
                uses.setdefault(name, []).append((rel, line))
    for d in defs:
        own = lambda u: u[0] == d["file"] and d["first_line"] <= u[1] <= d["end_line"]
        d["used"] = any(not own(u) for u in uses.get(d["name"], []))
    json.dump(defs, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1])
