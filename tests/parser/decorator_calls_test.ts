/**
 * Whose call a decorator's call is (`_collectCalls` in src/parser/extract.ts): `@app.get("/x")`
 * runs once, where the definition is written, so its caller is the symbol around the decorated
 * one (the file at the top level, the class for a method, the outer function for a wrapper
 * defined inside it); the decorated body's own calls stay its own. Solidity's modifier
 * invocations run with the function's body (`decoratorsRunWithBody`) and stay the function's.
 */
import { deepEqual } from "node:assert/strict";
import { parseSource } from "../../src/parser/mod.ts";
import type { ParseResult } from "../../src/parser/types.ts";

const _encode = (s: string) => new TextEncoder().encode(s);

const calls = (r: ParseResult) =>
  r.calls.map((c) =>
    `${c.line} ${c.receiver === null ? "" : c.receiver + "."}${c.callee} <- ${c.caller}`
  );

// A Flask app in the shape of the framework's tutorial (flaskr), with a login wrapper written
// the way werkzeug's wrappers/request.py writes one (`@functools.wraps(f)` inside a function).
const APP = [
  "import functools",
  "from flask import Flask, g, redirect",
  "",
  "app = Flask(__name__)",
  "",
  "",
  "def login_required(view):",
  "    @functools.wraps(view)",
  "    def wrapped_view(**kwargs):",
  "        if g.user is None:",
  '            return redirect("/auth/login")',
  "        return view(**kwargs)",
  "",
  "    return wrapped_view",
  "",
  "",
  '@app.get("/posts/<int:id>")',
  "@login_required",
  "def show(id):",
  "    return load(id)",
  "",
  "",
  "class Blog:",
  '    @app.route("/blog", methods=["POST"])',
  "    def create(self):",
  "        return load(0)",
  "",
  "",
  "def load(id):",
  "    return {'id': id}",
  "",
].join("\n");

Deno.test("a decorator's call is made where the definition is written", async () => {
  const r = await parseSource("flaskr/blog.py", _encode(APP));
  deepEqual(calls(r), [
    "4 Flask <- null",
    "8 functools.wraps <- flaskr/blog.py::login_required#function",
    "11 redirect <- flaskr/blog.py::login_required.wrapped_view#function",
    "12 view <- flaskr/blog.py::login_required.wrapped_view#function",
    "17 app.get <- null",
    "20 load <- flaskr/blog.py::show#function",
    "24 app.route <- flaskr/blog.py::Blog#class",
    "26 load <- flaskr/blog.py::Blog.create#method",
  ]);
});

Deno.test("a Solidity modifier invocation is a call of the function it modifies", async () => {
  const source = [
    "pragma solidity ^0.8.0;",
    "",
    "contract Vault {",
    "    address owner;",
    "",
    "    modifier onlyOwner() {",
    "        require(msg.sender == owner);",
    "        _;",
    "    }",
    "",
    "    function withdraw(uint amount) public onlyOwner {",
    "        payable(owner).transfer(amount);",
    "    }",
    "}",
    "",
  ].join("\n");
  const r = await parseSource("Vault.sol", _encode(source));
  deepEqual(
    calls(r).filter((c) => c.includes("onlyOwner") || c.includes("require")),
    [
      "7 require <- Vault.sol::Vault.onlyOwner#method",
      "11 onlyOwner <- Vault.sol::Vault.withdraw#method",
    ],
  );
});
