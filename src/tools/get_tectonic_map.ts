/** `get_tectonic_map`: the repo's files partitioned into modules by coupling (API.md §2.9). */
import { z } from "zod";
import { directoryKey, SIGNAL_WEIGHTS, TECTONIC } from "../query/tectonic.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import { type ArgsOf, defineTool, META, type MetaOf, type ResponseOf, table } from "./define.ts";

const _description =
  "Map an indexed repo into modules: files grouped by how they are coupled (imports between them, calls to each other's symbols, shared dependencies), each module named from its main folder and the anchor file's main symbols, with the coupling between modules and the files that live outside their module's folder (drifters). Deterministic: the same index gives the same map. Use it to learn a large codebase's real architecture before changing it.";

const _args = {
  min_plate_size: z.number().int().min(1).max(1000).optional().describe(
    "Smallest module kept (default 2); smaller groups are listed as isolated files",
  ),
  max_plates: z.number().int().min(1).max(500).optional().describe(
    "Most modules returned, largest first (default 30)",
  ),
  max_files_per_plate: z.number().int().min(0).max(1000).optional().describe(
    "Most member files listed per module (default 20; file_count always counts them all)",
  ),
  days: z.number().int().min(1).max(3650).optional().describe(
    "Accepted for compatibility with the reference (git co-change look-back); not used: coupling comes from the index alone",
  ),
};

/** Validated arguments. */
export type GetTectonicMapArgs = ArgsOf<typeof _args, "required">;

const _fields = {
  repo: z.string().describe("Repo id"),
  plate_count: z.number().int().describe("Modules found (of at least min_plate_size files)"),
  file_count: z.number().int().describe("Files mapped"),
  plates: table("p", {
    plate_id: z.number().int().describe("Module number"),
    name: z.string().describe("Its name: main folder and the anchor's main symbols"),
    anchor: z.string().describe("Its most connected file"),
    file_count: z.number().int().describe("Files in it"),
    cohesion: z.number().describe("Share of its coupling that stays inside"),
    majority_directory: z.string().describe("The folder most of its files are in"),
    drifter_count: z.number().int().describe("Files outside that folder"),
  }).describe("Modules, largest first"),
  members: table("m", {
    plate_id: z.number().int().describe("Module number"),
    file: z.string().describe("A member file (anchor first)"),
  }).describe("Member files, at most max_files_per_plate per module"),
  couplings: table("c", {
    from: z.number().int().describe("Module number"),
    to: z.number().int().describe("Module number"),
    weight: z.number().describe("Coupling between them"),
  }).describe("Coupling between the modules shown, strongest first"),
  drifter_summary: table("z", {
    file: z.string().describe("A file outside its module's folder"),
    current_directory: z.string().describe("Where it is"),
    belongs_with: z.string().describe("Its module's folder"),
    plate_id: z.number().int().describe("Its module"),
  }).describe("Files that live outside their module's folder"),
  isolated_count: z.number().int().describe("Files in no module"),
  isolated_files: z.array(z.string()).describe("Some of them"),
  signals_used: z.array(z.string()).describe("Coupling signals the index had"),
};

const _meta = {
  methodology: z.string().describe("How modules were found"),
  signal_weights: z.string().describe("Weight of each signal"),
  active_files: z.number().int().describe("Files with a coupling"),
  edge_count: z.number().int().describe("Coupling edges"),
  truncated: META.truncated,
  hint: META.hint,
};

const _MAX_COUPLINGS = 50;
const _MAX_ISOLATED = 100;
const _MAX_DRIFTERS = 30;

/** The module map, largest modules first. */
export function handler(
  ctx: ToolContext,
  args: GetTectonicMapArgs,
): ToolOutput<ResponseOf<typeof _fields>, MetaOf<typeof _meta>> {
  const { repo, view } = openRepo(ctx, args.repo);
  const map = view.get(TECTONIC);
  const minSize = args.min_plate_size ?? 2;
  const maxPlates = args.max_plates ?? 30;
  const perPlate = args.max_files_per_plate ?? 20;
  const kept = map.plates.filter((p) => p.files.length >= minSize);
  const isolated = [
    ...map.unplaced,
    ...map.plates.filter((p) => p.files.length < minSize).flatMap((p) => p.files),
  ].sort();
  const shown = kept.slice(0, maxPlates);
  const shownIds = new Set(shown.map((p) => p.id));
  const plates = shown.map((p) => ({
    plate_id: p.id,
    name: p.name,
    anchor: p.anchor,
    file_count: p.files.length,
    cohesion: p.cohesion,
    majority_directory: p.majority_directory,
    drifter_count: p.drifters.length,
  }));
  const members = shown.flatMap((p) =>
    [p.anchor, ...p.files.filter((f) => f !== p.anchor)].slice(0, perPlate).map((file) => ({
      plate_id: p.id,
      file,
    }))
  );
  const couplings = map.couplings.filter((c) => shownIds.has(c.from) && shownIds.has(c.to))
    .slice(0, _MAX_COUPLINGS);
  const drifters = shown.flatMap((p) =>
    p.drifters.map((file) => ({
      file,
      current_directory: directoryKey(file),
      belongs_with: p.majority_directory,
      plate_id: p.id,
    }))
  ).slice(0, _MAX_DRIFTERS);
  const fileCount = map.activeFiles + map.unplaced.length;
  const response: ResponseOf<typeof _fields> = {
    repo,
    plate_count: kept.length,
    file_count: fileCount,
    plates,
    members,
    couplings,
    drifter_summary: drifters,
    isolated_count: isolated.length,
    isolated_files: isolated.slice(0, _MAX_ISOLATED),
    signals_used: map.signals,
  };
  const meta: MetaOf<typeof _meta> = {
    methodology: "louvain_deterministic",
    signal_weights: Object.entries(SIGNAL_WEIGHTS).map(([k, v]) => `${k}:${v}`).join(","),
    active_files: map.activeFiles,
    edge_count: map.edgeCount,
  };
  const cut: string[] = [];
  if (kept.length > shown.length) {
    cut.push(`${kept.length - shown.length} more modules (max_plates)`);
  }
  if (shown.some((p) => p.files.length > perPlate)) cut.push("member lists (max_files_per_plate)");
  if (isolated.length > _MAX_ISOLATED) {
    cut.push(`${isolated.length - _MAX_ISOLATED} isolated files`);
  }
  if (cut.length > 0) {
    meta.truncated = true;
    meta.hint = `Not shown: ${
      cut.join("; ")
    }. Raise max_plates / max_files_per_plate, or list a module's files with get_file_tree path_prefix=<its majority_directory>`;
  }
  const warnings: string[] = [];
  if (args.days !== undefined) {
    warnings.push("days is accepted but not used: git co-change is not a signal here");
  }
  if (map.signals.length === 0) {
    warnings.push("No imports or resolvable calls in this index: every file is isolated");
  }
  return { response, repo, meta, rawBytes: 0, ...(warnings.length > 0 ? { warnings } : {}) };
}

/** The declaration. */
export const tool = defineTool({
  name: "get_tectonic_map",
  title: "Module map",
  summary:
    "the repo's real modules: files grouped by import and call coupling (deterministic), named, with the coupling between them",
  description: _description,
  repo: "optional",
  args: _args,
  output: { fields: _fields, meta: _meta, encoding: { id: "tm3" } },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: handler,
});
