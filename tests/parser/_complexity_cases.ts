/**
 * One function per language with complexity rules, with its metrics worked out by hand from the
 * counting rules of the language's data (`src/parser/complexity/`). Most are the same function:
 * two parameters, a loop holding an `if … else if …` whose condition has one `&&` — cyclomatic
 * 5 (1 + loop + if + else if + &&), nesting 2 (the `if` inside the loop; `else if` at its level).
 */

/** One case: a file, the function's name and its expected metrics. */
export interface ComplexityCase {
  language: string;
  file: string;
  source: string;
  name: string;
  cyclomatic: number;
  max_nesting: number;
  param_count: number;
}

const _STANDARD = { cyclomatic: 5, max_nesting: 2, param_count: 2 };

function _case(
  language: string,
  file: string,
  source: string,
  expected: Partial<ComplexityCase> = {},
): ComplexityCase {
  return { language, file, source, name: "f", ..._STANDARD, ...expected };
}

/** The cases, by language. */
export const COMPLEXITY_CASES: ComplexityCase[] = [
  _case(
    "javascript",
    "a.js",
    "function f(a, b) {\n  for (const x of a) {\n    if (x && b) {} else if (x) {}\n  }\n}\n",
  ),
  _case(
    "typescript",
    "b.ts",
    "function f(a: number, b = 2, c?: string): number {\n  return a ?? b;\n}\n",
    { cyclomatic: 3, max_nesting: 0, param_count: 3 },
  ),
  // A curried arrow is measured on the outer function, as ESLint does (its default value is a
  // path; the inner arrow's `if` is the inner one's).
  _case(
    "javascript",
    "c.js",
    "const f = (a, b = 1) => (c) => {\n  if (c) {}\n};\n",
    { cyclomatic: 2, max_nesting: 0, param_count: 2 },
  ),
  _case(
    "typescript",
    "c.ts",
    "export const f = (a: number) => (b: number, c: number) => {\n  if (b) {}\n};\n",
    { cyclomatic: 1, max_nesting: 0, param_count: 1 },
  ),
  // An optional call `g?.()` is a path, as an optional member `a?.b` is.
  _case(
    "typescript",
    "d.ts",
    "function f(a: { g?: () => void }, b?: { c: number }): void {\n  a.g?.();\n  b?.c;\n}\n",
    { cyclomatic: 3, max_nesting: 0, param_count: 2 },
  ),
  _case(
    "typescript",
    "a.ts",
    "function f(a: number[], b: boolean): void {\n  for (const x of a) {\n    if (x && b) {} else if (x) {}\n  }\n}\n",
  ),
  _case(
    "tsx",
    "a.tsx",
    "function f(a: number[], b: boolean) {\n  for (const x of a) {\n    if (x && b) {} else if (x) {}\n  }\n  return <div />;\n}\n",
  ),
  _case(
    "python",
    "a.py",
    "def f(a, b):\n    for x in a:\n        if x and b:\n            pass\n        elif x:\n            pass\n",
  ),
  _case(
    "go",
    "a.go",
    "package p\n\nfunc f(a []int, b bool) {\n\tfor _, x := range a {\n\t\tif x > 0 && b {\n\t\t} else if x < 0 {\n\t\t}\n\t}\n}\n",
  ),
  _case(
    "go",
    "b.go",
    "package p\n\nfunc (s *S) f(a, b int) int {\n\tswitch a {\n\tcase 1:\n\t\treturn b\n\tcase 2:\n\t\treturn 0\n\tdefault:\n\t\treturn 1\n\t}\n}\n",
    { cyclomatic: 3, max_nesting: 1 },
  ),
  _case(
    "java",
    "A.java",
    "class A {\n  void f(int[] a, boolean b) {\n    for (int x : a) {\n      if (x > 0 && b) {} else if (x < 0) {}\n    }\n  }\n}\n",
  ),
  _case(
    "groovy",
    "a.groovy",
    "class A {\n  void f(int a, boolean b) {\n    for (int x = 0; x < a; x++) {\n      if (x > 0 && b) {} else if (x < 0) {}\n    }\n  }\n}\n",
  ),
  _case(
    "apex",
    "A.cls",
    "public class A {\n  public void f(Integer a, Boolean b) {\n    for (Integer x = 0; x < a; x++) {\n      if (x > 0 && b) {} else if (x < 0) {}\n    }\n  }\n}\n",
  ),
  _case(
    "csharp",
    "A.cs",
    "class A {\n  void f(int[] a, bool b) {\n    foreach (var x in a) {\n      if (x > 0 && b) {} else if (x < 0) {}\n    }\n  }\n}\n",
  ),
  _case(
    "kotlin",
    "a.kt",
    "fun f(a: List<Int>, b: Boolean) {\n    for (x in a) {\n        if (x > 0 && b) {} else if (x < 0) {}\n    }\n}\n",
  ),
  _case(
    "swift",
    "a.swift",
    "func f(a: [Int], b: Bool) {\n    for x in a {\n        if x > 0 && b {} else if x < 0 {}\n    }\n}\n",
  ),
  _case(
    "scala",
    "a.scala",
    "object A {\n  def f(a: Int, b: Int): Int = {\n    if (a > 0) 1 else if (b > 0) 2 else a match {\n      case 1 => 3\n      case _ => 4\n    }\n  }\n}\n",
    { cyclomatic: 5, max_nesting: 2 },
  ),
  _case(
    "dart",
    "a.dart",
    "void f(List<int> a, bool b) {\n  for (var x in a) {\n    if (x > 0 && b) {} else if (x < 0) {}\n  }\n}\n",
  ),
  _case(
    "c",
    "a.c",
    "void f(int *a, int b) {\n  for (int i = 0; i < b; i++) {\n    if (a[i] > 0 && b) {} else if (a[i] < 0) {}\n  }\n}\n",
  ),
  _case(
    "cpp",
    "a.cpp",
    "void f(std::vector<int> a, bool b) {\n  for (int x : a) {\n    if (x > 0 && b) {} else if (x < 0) {}\n  }\n}\n",
  ),
  _case(
    "arduino",
    "a.ino",
    "void f(int a, int b) {\n  for (int i = 0; i < a; i++) {\n    if (i > 0 && b) {} else if (i < 0) {}\n  }\n}\n",
  ),
  _case(
    "objc",
    "a.m",
    "void f(int a, int b) {\n  for (int i = 0; i < a; i++) {\n    if (i > 0 && b) {} else if (i < 0) {}\n  }\n}\n",
  ),
  _case(
    "rust",
    "a.rs",
    "fn f(a: Vec<i32>, b: bool) {\n    for x in a {\n        if x > 0 && b {} else if x < 0 {}\n    }\n}\n",
  ),
  _case(
    "ruby",
    "a.rb",
    "def f(a, b)\n  a.each do |x|\n    if x > 0 && b\n      1\n    elsif x < 0\n      2\n    end\n  end\n  while b\n  end\nend\n",
    { max_nesting: 1 },
  ),
  _case(
    "erb",
    "a.erb",
    "<% def f(a, b)\n  while a\n    if a && b\n      1\n    elsif b\n      2\n    end\n  end\nend %>\n",
  ),
  _case(
    "php",
    "a.php",
    "<?php\nfunction f($a, $b) {\n  foreach ($a as $x) {\n    if ($x > 0 && $b) {} elseif ($x < 0) {}\n  }\n}\n",
  ),
  _case(
    "perl",
    "a.pl",
    "sub f {\n  my ($a, $b) = @_;\n  for my $x (@$a) {\n    if ($x > 0 && $b) {} elsif ($x < 0) {}\n  }\n}\n",
    { param_count: 0 },
  ),
  _case(
    "lua",
    "a.lua",
    "function f(a, b)\n  for _, x in ipairs(a) do\n    if x > 0 and b then\n    elseif x < 0 then\n    end\n  end\nend\n",
  ),
  _case(
    "luau",
    "a.luau",
    "function f(a, b)\n  for _, x in ipairs(a) do\n    if x > 0 and b then\n    elseif x < 0 then\n    end\n  end\nend\n",
  ),
  _case(
    "bash",
    "a.sh",
    'f() {\n  for x in "$@"; do\n    if [ "$x" ] && [ "$1" ]; then\n      :\n    elif [ "$x" ]; then\n      :\n    fi\n  done\n}\n',
    { param_count: 0 },
  ),
  _case(
    "powershell",
    "a.ps1",
    "function f($a, $b) {\n  foreach ($x in $a) {\n    if ($x -gt 0 -and $b) {} elseif ($x -lt 0) {}\n  }\n}\n",
  ),
  _case("powershell", "b.ps1", "function f {\n  param($a, $b, $c)\n  if ($a) {}\n}\n", {
    cyclomatic: 2,
    max_nesting: 1,
    param_count: 3,
  }),
  _case(
    "r",
    "a.R",
    "f <- function(a, b) {\n  for (x in a) {\n    if (x > 0 && b) {} else if (x < 0) {}\n  }\n}\n",
  ),
  _case(
    "julia",
    "a.jl",
    "function f(a, b)\n  for x in a\n    if x > 0\n    elseif x < 0\n    end\n  end\n  while b\n  end\nend\n",
  ),
  _case(
    "gdscript",
    "a.gd",
    "func f(a, b):\n\tfor x in a:\n\t\tif x > 0 and b:\n\t\t\tpass\n\t\telif x < 0:\n\t\t\tpass\n",
  ),
  _case(
    "zig",
    "a.zig",
    "fn f(a: []i32, b: bool) void {\n    for (a) |x| {\n        if (x > 0 and b) {} else if (x < 0) {}\n    }\n}\n",
  ),
  _case(
    "solidity",
    "a.sol",
    "contract C {\n  function f(uint a, bool b) public {\n    for (uint i = 0; i < a; i++) {\n      if (i > 0 && b) {} else if (i < 0) {}\n    }\n  }\n}\n",
  ),
  _case(
    "elixir",
    "a.ex",
    "defmodule M do\n  def f(a, b) do\n    for x <- a do\n      if x > 0 and b do\n        1\n      else\n        case x do\n          1 -> 2\n          _ -> 3\n        end\n      end\n    end\n  end\nend\n",
    { cyclomatic: 6, max_nesting: 3 },
  ),
  _case(
    "erlang",
    "a.erl",
    "-module(m).\nf(A, B) ->\n    case A of\n        1 when B -> ok;\n        _ -> if A > 0 andalso B -> x; true -> y end\n    end.\n",
    { cyclomatic: 6 },
  ),
  _case(
    "haskell",
    "a.hs",
    "module M where\n\nf :: Int -> Bool -> Int\nf a b =\n  case a of\n    1 -> if b && a > 0 then 1 else 2\n    _ -> 3\n",
  ),
  _case(
    "ocaml",
    "a.ml",
    "let f a b =\n  match a with\n  | 1 -> if b && a > 0 then 1 else 2\n  | _ -> 3\n",
  ),
  _case(
    "fsharp",
    "a.fs",
    "let f a b =\n    match a with\n    | 1 -> if b && a > 0 then 1 else 2\n    | _ -> 3\n",
  ),
  _case(
    "elm",
    "a.elm",
    "module M exposing (..)\n\nf a b =\n    case a of\n        1 -> if b && a > 0 then 1 else 2\n        _ -> 3\n",
  ),
  _case(
    "gleam",
    "a.gleam",
    "pub fn f(a, b) {\n  case a {\n    1 -> case b && a > 0 { True -> 1 False -> 2 }\n    _ -> 3\n  }\n}\n",
    { cyclomatic: 6 },
  ),
  _case(
    "rescript",
    "a.res",
    "let f = (a, b) => {\n  switch a {\n  | 1 => if b && a > 0 { 1 } else if b { 2 } else { 3 }\n  | _ => 3\n  }\n}\n",
    { cyclomatic: 6 },
  ),
  _case("nix", "a.nix", "{ f = { a, b }: if a && b then 1 else if a then 2 else 3; }\n", {
    cyclomatic: 4,
    max_nesting: 1,
  }),
  _case("clojure", "a.clj", "(defn f [a b]\n  (doseq [x a]\n    (if (and x b) 1 (when x 2))))\n", {
    max_nesting: 3,
  }),
  _case(
    "commonlisp",
    "a.lisp",
    "(defun f (a b)\n  (dolist (x a)\n    (if (and x b) 1 (when x 2))))\n",
    { max_nesting: 3 },
  ),
  _case("elisp", "a.el", "(defun f (a b)\n  (dolist (x a)\n    (if (and x b) 1 (when x 2))))\n", {
    max_nesting: 3,
  }),
  _case(
    "pascal",
    "a.pas",
    "unit u;\ninterface\nimplementation\nfunction f(a: Integer; b: Boolean): Integer;\nvar x: Integer;\nbegin\n  for x := 1 to a do\n  begin\n    if (x > 0) and b then\n      Result := 1\n    else if x < 0 then\n      Result := 2;\n  end;\nend;\nend.\n",
  ),
  _case(
    "verilog",
    "a.sv",
    "module m;\nfunction integer f(input integer a, input integer b);\n  integer i;\n  for (i = 0; i < a; i = i + 1) begin\n    if (i > 0 && b) f = 1;\n    else if (i < 0) f = 2;\n  end\nendfunction\nendmodule\n",
  ),
  _case(
    "ejs",
    "a.ejs",
    "<% function f(a, b) {\n  for (const x of a) {\n    if (x && b) {} else if (x) {}\n  }\n} %>\n",
  ),
  _case(
    "vue",
    "a.vue",
    "<template><div/></template>\n<script>\nfunction f(a, b) {\n  for (const x of a) {\n    if (x && b) {} else if (x) {}\n  }\n}\n</script>\n",
  ),
  _case(
    "vue",
    "b.vue",
    '<script lang="ts">\nfunction f(a: number[], b: boolean) {\n  for (const x of a) {\n    if (x && b) {} else if (x) {}\n  }\n}\n</script>\n',
  ),
  _case(
    "svelte",
    "a.svelte",
    "<script>\n  function f(a, b) {\n    for (const x of a) {\n      if (x && b) {} else if (x) {}\n    }\n  }\n</script>\n<p>hi</p>\n",
  ),
  _case(
    "d",
    "a.d",
    "void f(int[] a, bool b) {\n  foreach (x; a) {\n    if (x > 0 && b) {} else if (x < 0) {}\n  }\n  switch (b) { case 1: break; default: break; }\n}\n",
    { cyclomatic: 6 },
  ),
];
