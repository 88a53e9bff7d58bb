/**
 * Entry points (src/query/gateways.ts) over a small polyglot repo indexed for real: each kind of
 * the module's table by decorator, registration, name and file, handlers looked up by name,
 * inline handlers without a symbol, test files flagged, and the order of the list.
 */
import { deepEqual } from "node:assert/strict";
import { findGateways, GATEWAYS } from "../../src/query/gateways.ts";
import { indexedView } from "./_fixture.ts";

const _FILES = {
  "web/app.py": [
    "from flask import Flask",
    "app = Flask(__name__)",
    "",
    "",
    '@app.get("/users")',
    "def list_users():",
    "    return []",
    "",
    "",
    '@app.route("/items", methods=["POST"])',
    "def add_item():",
    "    return 1",
    "",
  ].join("\n"),
  "web/server.js": [
    "const express = require('express');",
    "const app = express();",
    "function health(req, res) { res.send('ok'); }",
    "app.get('/health', health);",
    "app.post('/login', (req, res) => res.send('x'));",
    "",
  ].join("\n"),
  "shop/urls.py": [
    "from django.urls import path",
    "from . import views",
    "",
    'urlpatterns = [path("cart/", views.cart_view, name="cart")]',
    "",
  ].join("\n"),
  "shop/views.py": "def cart_view(request):\n    return 1\n",
  "jobs/tasks.py": [
    "from celery import shared_task",
    "import click",
    "",
    "",
    "@shared_task",
    "def send_mail():",
    "    return 1",
    "",
    "",
    "@click.command()",
    "def migrate():",
    "    return 1",
    "",
  ].join("\n"),
  "cmd/tool/main.go": "package main\n\nfunc main() {}\n",
  "tests/test_app.py": "def test_users():\n    assert True\n",
};

Deno.test("gateways: every kind, in kind, file and line order", async () => {
  const { view, close } = await indexedView(_FILES);
  try {
    const found = findGateways(view);
    // A decorated function starts at its decorator.
    deepEqual(
      found.map((g) =>
        `${g.kind} ${g.label} ${g.symbol?.id ?? "inline"} ${g.file}:${g.line} ${g.via}${
          g.inTest ? " test" : ""
        }`
      ),
      [
        // path() takes any method.
        "http ANY /cart/ shop/views.py::cart_view#function shop/urls.py:4 registration",
        "http GET /users web/app.py::list_users#function web/app.py:5 decorator",
        "http POST /items web/app.py::add_item#function web/app.py:10 decorator",
        "http GET /health web/server.js::health#function web/server.js:4 registration",
        "http POST /login inline web/server.js:5 registration",
        "cli cli:migrate jobs/tasks.py::migrate#function jobs/tasks.py:10 decorator",
        "task task:send_mail jobs/tasks.py::send_mail#function jobs/tasks.py:5 decorator",
        "main main:cmd/tool/main.go cmd/tool/main.go::main#function cmd/tool/main.go:3 name",
        "test test:test_users tests/test_app.py::test_users#function tests/test_app.py:1 name test",
      ],
    );
    deepEqual(view.get(GATEWAYS), found);
  } finally {
    await close();
  }
});
