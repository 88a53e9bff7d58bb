import type { ExtractorSpec } from "../language_spec.ts";

/**
 * Ansible playbooks and roles, YAML read by npm `yaml` (`extractors/ansible.ts`): the task,
 * handler, default and variable files of a role (`roles/<role>/tasks/*.yml`...), files under
 * `playbooks/`, and any YAML whose first item is a play (`- hosts:` or `- import_playbook:`).
 * Included and imported task files and playbooks resolve as paths.
 */
export const ansible: ExtractorSpec = {
  id: "ansible",
  content: "data",
  extensions: [],
  detect: {
    extensions: [".yaml", ".yml"],
    path: /(^|\/)(roles\/[^/]+\/(tasks|handlers|defaults|vars|meta)\/[^/]+|playbooks\/[^/]+)$/,
    content:
      /^-[ \t]+(?:name:[^\n]*\n[ \t]+)?(?:hosts|import_playbook|ansible\.builtin\.import_playbook):/m,
  },
  extractor: "ansible",
  resolver: "path",
};
