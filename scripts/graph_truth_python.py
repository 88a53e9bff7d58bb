"""An independent ground truth of Python imports for `deno task bench graph`.

Python's own parser (`ast`) reads every module of a package tree; the import statements are
resolved here by Python's rules, without tree-sitter and without codemunch's resolver:

- `import a.b.c` (also `as d`) imports the module a.b.c;
- `from a.b import c` imports the submodule a.b.c when a/b/c.py (or a/b/c/__init__.py) exists,
  else the module a.b; relative forms (`from . import x`, `from ..m import y`) count from the
  importing module's package;
- through a package's `__init__.py`: a file that imports a name the `__init__.py` takes from one
  of its modules (`from .m import Y`, or `*`), or uses it as an attribute of the package it
  imported (`pkg.Y` after `import pkg`), imports that module too (followed through up to 4
  `__init__.py` files).

Usage: python3 graph_truth_python.py ROOT  ->  JSON {file: [imported files]} on stdout (paths
relative to ROOT). A ROOT holding `__init__.py` is itself the package named like its folder.
"""
import ast
import json
import os
import sys


def modules_of(root):
    """Dotted module name -> repo-relative file, for every .py file under root."""
    package = os.path.basename(os.path.abspath(root)) if os.path.exists(
        os.path.join(root, "__init__.py")) else None
    out = {}
    for dirpath, _dirs, files in os.walk(root):
        for f in files:
            if not f.endswith(".py"):
                continue
            rel = os.path.relpath(os.path.join(dirpath, f), root).replace(os.sep, "/")
            parts = rel[:-3].split("/")
            if parts[-1] == "__init__":
                parts = parts[:-1]
            name = ".".join(([package] if package else []) + parts)
            out[name if name else (package or "")] = rel
    return out


def module_name(rel, modules):
    for name, path in modules.items():
        if path == rel:
            return name
    return None


class Truth:
    def __init__(self, root):
        self.root = root
        self.modules = modules_of(root)
        self.by_file = {v: k for k, v in self.modules.items()}
        self.trees = {}
        for rel in self.modules.values():
            try:
                with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as fh:
                    self.trees[rel] = ast.parse(fh.read())
            except (SyntaxError, ValueError):
                self.trees[rel] = None

    def package_of(self, rel):
        name = self.by_file[rel]
        return name if rel.endswith("__init__.py") or rel == "__init__.py" else name.rpartition(".")[0]

    def absolute(self, rel, level, module):
        if level == 0:
            return module or ""
        base = self.package_of(rel)
        for _ in range(level - 1):
            base = base.rpartition(".")[0]
        return ".".join(p for p in [base, module or ""] if p)

    def reexports(self, init_rel):
        """Names an __init__.py takes from its modules: name -> module file ('*' for wildcard)."""
        out = {}
        tree = self.trees.get(init_rel)
        if tree is None:
            return out
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom):
                continue
            full = self.absolute(init_rel, node.level, node.module)
            for alias in node.names:
                sub = self.modules.get(f"{full}.{alias.name}")
                target = sub or self.modules.get(full)
                if target is None or target == init_rel:
                    continue
                out.setdefault(alias.asname or alias.name, set()).add(target)
                if alias.name == "*":
                    out.setdefault("*", set()).add(target)
        return out

    def defines(self, rel):
        """Top-level names a module binds (definitions, assignments, imports)."""
        tree = self.trees.get(rel)
        out = set()
        if tree is None:
            return out
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                out.add(node.name)
            elif isinstance(node, ast.Assign):
                out |= {t.id for t in node.targets if isinstance(t, ast.Name)}
            elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and isinstance(node.target, ast.Name):
                out.add(node.target.id)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                out |= {(a.asname or a.name).split(".")[0] for a in node.names}
        return out

    def through(self, target, names, hops=0):
        """Files reached through `target`'s __init__ re-exports for the names used from it."""
        if hops >= 4 or not target.endswith("__init__.py") or not names:
            return set()
        table = self.reexports(target)
        out = set()
        for n in names:
            sources = set(table.get(n, set()))
            if not sources:
                # `from .m import *`: the modules of the wildcard that define the name.
                sources = {f for f in table.get("*", set()) if n in self.defines(f)}
            for f in sources:
                out.add(f)
                out |= self.through(f, {n}, hops + 1)
        return out

    def attributes(self, tree, bound):
        """Attribute names used on `bound` (a dotted name) in a module."""
        out = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and ast.unparse(node.value) == bound:
                out.add(node.attr)
        return out

    def imports_of(self, rel):
        tree = self.trees.get(rel)
        if tree is None:
            return set()
        out = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    target = self.modules.get(alias.name)
                    if target is None:
                        continue
                    out.add(target)
                    used = self.attributes(tree, alias.asname or alias.name)
                    out |= self.through(target, used)
            elif isinstance(node, ast.ImportFrom):
                full = self.absolute(rel, node.level, node.module)
                module = self.modules.get(full)
                for alias in node.names:
                    sub = self.modules.get(f"{full}.{alias.name}") if alias.name != "*" else None
                    if sub is not None:
                        out.add(sub)
                    elif module is not None:
                        out.add(module)
                        out |= self.through(module, {alias.name})
        out.discard(rel)
        return out


def main():
    truth = Truth(sys.argv[1])
    json.dump({rel: sorted(truth.imports_of(rel)) for rel in sorted(truth.trees)}, sys.stdout)


if __name__ == "__main__":
    main()
