/**
 * The layers of the code, from the bottom (README "Architecture", docs/decisions/layers.md and small-debts.md). A
 * module may import from its own layer and the layers below it, never above; inside a layer, folders
 * may not import each other both ways and files may not import in a circle. Here imports of types
 * only are not counted: .dependency-cruiser-types.cjs checks the layers again counting them.
 * Next's route handlers (app/api) are delivery's entry points: thin files that hand a request to
 * lib/http or lib/mcp. Components sit below the root: they render what pages hand them.
 */
const LAYERS = [
  ["foundations", "^(db/|lib/[^/]+\\.(ts|mjs)$|lib/(mail|security)/)"],
  ["jobs", "^lib/jobs/"],
  ["capabilities", "^lib/(skills|listing|learned|ledger|evolution|activation|usage|telemetry|teams|auth|oauth|lint|overview|webhooks)/"],
  ["contracts", "^lib/contracts/"],
  ["delivery", "^(lib/(http|mcp|actions|pages)/|app/api/)"],
  ["components", "^components/"],
  ["root", "^lib/(root|demo)/"],
  ["pages", "^app/(?!api/)"],
];
const ANY_LAYER = LAYERS.map(([, path]) => path);

const downOnly = LAYERS.slice(0, -1).map(([name, path], index) => ({
  name: `layer-${name}`,
  comment: `${name} may import only from ${LAYERS.slice(0, index + 1)
    .map(([below]) => below)
    .join(", ")}`,
  severity: "error",
  from: { path },
  to: { path: LAYERS.slice(index + 1).map(([, above]) => above) },
}));

module.exports = {
  forbidden: [
    ...downOnly,
    {
      name: "pages-not-db",
      comment: "pages and components read the database through the layers below (lib/pages, the capabilities), never db/ itself",
      severity: "error",
      from: { path: ["^app/(?!api/)", "^components/"] },
      to: { path: "^db/" },
    },
    {
      name: "lib-in-a-layer",
      comment: "every folder of lib/ belongs to a layer: add a new one to LAYERS",
      severity: "error",
      from: { path: "^lib/" },
      to: { path: "^lib/", pathNot: ANY_LAYER },
    },
    {
      name: "no-two-way-folders",
      comment: "two folders import each other: move what both need below them",
      severity: "error",
      scope: "folder",
      from: {},
      to: { circular: true },
    },
    {
      name: "no-file-circle",
      comment: "files import each other in a circle: move what they share into a file of its own",
      severity: "error",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|\\.next)/" },
    // Imports as they are after compilation: a type-only import is gone (the types pass counts it).
    tsPreCompilationDeps: false,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs"],
    },
  },
};
