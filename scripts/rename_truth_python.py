"""An independent truth of what renaming a Python definition must change, for
`deno task bench health --rename`: Python's own parser (`ast`) and tokenizer (`tokenize`) over the
whole tree, without tree-sitter and without codemunch's index.

`candidates ROOT`: the functions, methods and classes whose name is bound exactly once in the
tree (that definition; no other def/class, assignment, parameter, keyword argument, import alias or
attribute assignment of the name anywhere), that are not dunder names, builtins or attributes of a
standard-library module the tree imports, and whose name is written at least once more. For those
names the sites a rename must change are every NAME token of the name in every `.py` file (a
string or comment holding it is not a token: strings are counted apart). Prints JSON
[{file, line, name, kind, sites:[[file, line, col]], strings}] (col 1-based, in code points).

`count ROOT NAME`: the NAME tokens of NAME left in the tree (JSON {name, tokens}).
"""
import ast
import builtins
import importlib
import io
import json
import os
import sys
import tokenize


def _files(root):
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for f in sorted(filenames):
            if f.endswith(".py"):
                path = os.path.join(dirpath, f)
                yield os.path.relpath(path, root).replace(os.sep, "/"), path


def _read(path):
    with open(path, "rb") as fh:
        return fh.read().decode("utf-8", errors="replace")


def _tokens(text):
    """(type, string, line, col) of every token; [] when the file does not tokenize."""
    try:
        return [
            (t.type, t.string, t.start[0], t.start[1] + 1)
            for t in tokenize.generate_tokens(io.StringIO(text).readline)
        ]
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return []


class _Bindings(ast.NodeVisitor):
    """Every name bound in a module: (name, kind, line) of definitions, and other bindings."""

    def __init__(self):
        self.defs = []
        self.other = []
        self.stdlib = set()

    def _def(self, node, kind):
        self.defs.append((node.name, kind, node.lineno))
        for arg in ast.walk(node.args) if hasattr(node, "args") else []:
            if isinstance(arg, ast.arg):
                self.other.append(arg.arg)

    def visit_FunctionDef(self, node):
        self._def(node, "function")
        self.generic_visit(node)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        self.defs.append((node.name, "class", node.lineno))
        self.generic_visit(node)

    def visit_Lambda(self, node):
        for arg in ast.walk(node.args):
            if isinstance(arg, ast.arg):
                self.other.append(arg.arg)
        self.generic_visit(node)

    def visit_Name(self, node):
        if isinstance(node.ctx, (ast.Store, ast.Del)):
            self.other.append(node.id)

    def visit_Attribute(self, node):
        if isinstance(node.ctx, (ast.Store, ast.Del)):
            self.other.append(node.attr)
        self.generic_visit(node)

    def visit_keyword(self, node):
        if node.arg is not None:
            self.other.append(node.arg)
        self.generic_visit(node)

    def visit_alias(self, node):
        if node.asname is not None:
            self.other.append(node.asname)

    def visit_Import(self, node):
        for a in node.names:
            self.stdlib.add(a.name)
        self.generic_visit(node)

    def visit_ImportFrom(self, node):
        if node.level == 0 and node.module:
            self.stdlib.add(node.module)
        self.generic_visit(node)

    def visit_Global(self, node):
        self.other.extend(node.names)

    visit_Nonlocal = visit_Global


def _external_names(modules):
    """Attributes of the standard-library modules the tree imports (uses of them are not ours)."""
    out = set(dir(builtins))
    names = getattr(sys, "stdlib_module_names", set())
    for m in sorted(modules):
        if m.split(".")[0] not in names:
            continue
        try:
            mod = importlib.import_module(m)
        except Exception:
            continue
        out.update(dir(mod))
        for value in vars(mod).values():
            if isinstance(value, type):
                out.update(dir(value))
    return out


def candidates(root):
    defs = []
    other = {}
    tokens = {}
    modules = set()
    for rel, path in _files(root):
        text = _read(path)
        tokens[rel] = _tokens(text)
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        b = _Bindings()
        b.visit(tree)
        modules |= b.stdlib
        defs.extend((rel, name, kind, line) for name, kind, line in b.defs)
        for name in b.other:
            other[name] = other.get(name, 0) + 1
    count = {}
    for _, name, _, _ in defs:
        count[name] = count.get(name, 0) + 1
    external = _external_names(modules)
    out = []
    for rel, name, kind, line in defs:
        if count[name] != 1 or other.get(name) or name in external or len(name) < 4:
            continue
        if name.startswith("__") and name.endswith("__"):
            continue
        sites = []
        strings = 0
        for f, toks in tokens.items():
            for ttype, s, tline, col in toks:
                if ttype == tokenize.NAME and s == name:
                    sites.append([f, tline, col])
                elif ttype == tokenize.STRING and s.strip("'\"rbuRBU") == name:
                    strings += 1
        if len(sites) < 2:
            continue
        out.append({"file": rel, "line": line, "name": name, "kind": kind, "sites": sites,
                    "strings": strings})
    return out


def count(root, name):
    n = 0
    for _, path in _files(root):
        n += sum(1 for t in _tokens(_read(path)) if t[0] == tokenize.NAME and t[1] == name)
    return {"name": name, "tokens": n}


if __name__ == "__main__":
    if sys.argv[1] == "candidates":
        json.dump(candidates(sys.argv[2]), sys.stdout)
    else:
        json.dump(count(sys.argv[2], sys.argv[3]), sys.stdout)
