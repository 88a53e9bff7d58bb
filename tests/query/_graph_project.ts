/**
 * A small Python package with a known call and import graph, shared by the unit tests of the
 * whole-graph analyses (call_edges, coupling, importance, extraction, winnow, related).
 *
 * - `pkg/util.py` defines `helper` (called from three places) and `unused`;
 * - `pkg/a.py` imports `helper`; `run` calls `helper` and `step`, `step` calls `helper`;
 * - `pkg/b.py` imports `helper` and `run`; `main` calls both; a top-level call runs `main`;
 * - `pkg/__init__.py` is empty, `README.md` a document (no module of the code).
 */
export const GRAPH_PROJECT: Record<string, string> = {
  "pkg/__init__.py": "",
  "pkg/util.py": [
    "def helper(x):",
    '    """Return x."""',
    "    return x",
    "",
    "",
    "def unused():",
    "    return 0",
    "",
  ].join("\n"),
  "pkg/a.py": [
    "from pkg.util import helper",
    "",
    "",
    "def run():",
    "    return helper(1) + step()",
    "",
    "",
    "def step():",
    "    return helper(2)",
    "",
  ].join("\n"),
  "pkg/b.py": [
    "from pkg.a import run",
    "from pkg.util import helper",
    "",
    "",
    "def main():",
    "    return run() + helper(3)",
    "",
    "",
    "main()",
    "",
  ].join("\n"),
  "README.md": "# pkg\n\nCall `main`.\n",
};
