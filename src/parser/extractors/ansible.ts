/**
 * Ansible playbooks and role files, read by npm `yaml`: a play (an item with `hosts:`) is a
 * `class` named by its `name` (else its hosts), and its `tasks`, `pre_tasks`, `post_tasks` and
 * `handlers` are its `method`s; in a task or handler file every task is a `function`. A task is
 * named by its `name`, else by its module (`ansible.builtin.copy`); the tasks of a `block`,
 * `rescue` or `always` are nested in it. In a `vars/` or `defaults/` file, and in a play's
 * `vars`, every variable is a `constant`. `import_tasks`, `include_tasks`, `import_playbook`,
 * `include_vars` and a play's `roles` are imports (the role by its name); `notify` is a reference
 * (call) of the handler it names.
 */
import type { Extracted, Extractor } from "./records.ts";
import { get, items, pairRange, pairs, range, readYaml, text, type YamlNode } from "./yaml_tree.ts";

const _TASK_LISTS = ["pre_tasks", "roles", "tasks", "post_tasks", "handlers"];
const _BLOCKS = ["block", "rescue", "always"];
const _IMPORTS = new Set([
  "import_tasks",
  "include_tasks",
  "import_playbook",
  "include_vars",
  "import_role",
  "include_role",
]);
/** Task keys that are not its module. */
const _TASK_KEYWORDS = new Set([
  "name",
  "when",
  "loop",
  "with_items",
  "register",
  "tags",
  "become",
  "become_user",
  "notify",
  "vars",
  "args",
  "environment",
  "ignore_errors",
  "changed_when",
  "failed_when",
  "delegate_to",
  "run_once",
  "until",
  "retries",
  "delay",
  "no_log",
  "listen",
  "check_mode",
  "diff",
  "loop_control",
  "block",
  "rescue",
  "always",
  "async",
  "poll",
  "module_defaults",
  "any_errors_fatal",
  "throttle",
]);

export const extractor: Extractor = {
  extract(source: string, file: string): Extracted {
    const { root, errors } = readYaml(source);
    const found: Extracted = { symbols: [], imports: [], calls: [], errors };
    if (/(^|\/)(vars|defaults)\/[^/]+$/.test(file)) {
      _variables(root, found, undefined);
      return found;
    }
    for (const item of items(root)) {
      if (get(item, "hosts") !== undefined) _play(item, found);
      else _task(item, found, undefined);
    }
    return found;
  },
};

function _play(play: YamlNode, found: Extracted): void {
  const [start, end] = range(play);
  const name = text(get(play, "name")) ?? text(get(play, "hosts")) ?? "play";
  const parent = found.symbols.length;
  found.symbols.push({ name, kind: "class", start, end });
  _variables(get(play, "vars"), found, parent);
  for (const list of _TASK_LISTS) {
    for (const item of items(get(play, list))) {
      if (list === "roles") {
        const role = text(item) ?? text(get(item, "role")) ?? text(get(item, "name"));
        if (role !== undefined) found.imports.push({ specifier: role, at: range(item)[0] });
      } else _task(item, found, parent);
    }
  }
}

function _task(task: YamlNode, found: Extracted, parent: number | undefined): void {
  const [start, end] = range(task);
  let module: string | undefined;
  for (const p of pairs(task)) {
    const key = text(p.key);
    if (key === undefined) continue;
    const bare = key.replace(/^ansible\.builtin\./, "");
    if (_IMPORTS.has(bare)) {
      const target = text(p.value) ?? text(get(p.value, "file")) ?? text(get(p.value, "name"));
      if (target !== undefined) found.imports.push({ specifier: target, at: pairRange(p)[0] });
    }
    if (module === undefined && !_TASK_KEYWORDS.has(key)) module = key;
  }
  // A top-level `import_playbook` is not a task: only its import is kept.
  if (parent === undefined && module?.replace(/^ansible\.builtin\./, "") === "import_playbook") {
    return;
  }
  const name = text(get(task, "name")) ?? module ?? "task";
  const index = found.symbols.length;
  const draft = { name, kind: "function" as const, start, end };
  found.symbols.push(parent === undefined ? draft : { ...draft, parent });
  const notify = get(task, "notify");
  for (const handler of [text(notify), ...items(notify).map(text)]) {
    if (handler !== undefined) found.calls.push({ callee: handler, at: range(notify)[0] });
  }
  for (const block of _BLOCKS) {
    for (const inner of items(get(task, block))) _task(inner, found, index);
  }
}

function _variables(vars: YamlNode | null | undefined, found: Extracted, parent?: number): void {
  for (const p of pairs(vars)) {
    const name = text(p.key);
    if (name === undefined) continue;
    const [start, end] = pairRange(p);
    const draft = { name, kind: "constant" as const, start, end };
    found.symbols.push(parent === undefined ? draft : { ...draft, parent });
  }
}
