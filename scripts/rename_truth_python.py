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
    """(type, string, line, col) of every token; [] when the file does not tokenize.

    The module paths of import statements (`from a.b import c`: `a`, `b`; `import a.b as c`:
    `a`, `b`) are left out: they name modules, never a definition. The names an f-string's
    substitutions write (`f"{self.url_charset}"`) are NAME tokens too (Python before 3.12
    tokenizes an f-string as one STRING token).
    """
    try:
        raw = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return []
    out = []
    state = None  # "from" (until import), "import" (module names until the line ends)
    for t in raw:
        if t.type in (tokenize.NEWLINE, tokenize.ENDMARKER):
            state = None
        elif t.type == tokenize.NAME and state is None and t.string in ("from", "import") \
                and _starts_statement(raw, t):
            state = t.string
            continue
        elif t.type == tokenize.NAME and t.string == "import" and state == "from":
            state = "names"
            continue
        if t.type == tokenize.NAME and state in ("from", "import"):
            continue
        if t.type == tokenize.STRING and _is_fstring(t.string):
            out.extend(_fstring_names(t))
        out.append((t.type, t.string, t.start[0], t.start[1] + 1))
    return out


def _starts_statement(raw, tok):
    """Whether `tok` is the first token of its logical line."""
    i = raw.index(tok)
    for prev in reversed(raw[:i]):
        if prev.type in (tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT):
            continue
        return prev.type == tokenize.NEWLINE or prev.string == ";"
    return True


def _is_fstring(s):
    prefix = s[: len(s) - len(s.lstrip("rRbBuUfF"))]
    return "f" in prefix.lower()


def _fstring_names(tok):
    """NAME-like (type, string, line, col) of the identifiers inside an f-string's braces."""
    out = []
    s = tok.string
    depth = 0
    i = 0
    line, col = tok.start[0], tok.start[1]
    while i < len(s):
        c = s[i]
        if depth == 0 and s.startswith("{{", i):
            i += 2
            col += 2
            continue
        if c == "{":
            depth += 1
        elif c == "}" and depth > 0:
            depth -= 1
        elif depth > 0 and (c.isalpha() or c == "_") and (i == 0 or not (s[i - 1].isalnum() or s[i - 1] == "_")):
            j = i
            while j < len(s) and (s[j].isalnum() or s[j] == "_"):
                j += 1
            out.append((tokenize.NAME, s[i:j], line, col + 1))
            col += j - i
            i = j
            continue
        if c == "\n":
            line += 1
            col = 0
        else:
            col += 1
        i += 1
    return out


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
