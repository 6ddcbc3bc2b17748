/**
 * The layer rules of .dependency-cruiser.cjs again, counting imports of types only: a type ties a
 * module to what it names as much as code does (delivery named the composition root's App until
 * issue 42). A pass of its own because dependency-cruiser's folder rules cannot tell a type import
 * from another: counted there, types would make two-way folders of folders that share only types.
 */
// dependency-cruiser reads its configuration as CommonJS.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { forbidden, options } = require("./.dependency-cruiser.cjs");

/** What still imports types from a layer above, each waiting on a move of its own. */
const TYPES_STILL_UP = [
  // The process's App, for capabilities too (the Auth.js callbacks); its type is in lib/contracts/app.ts.
  "^lib/current-app\\.ts$",
  // Capabilities naming the types of a contract's schemas, which belong in the capability.
  "^lib/(usage/harness-views|listing/settings|evolution/observations|activation/runs)\\.ts$",
];

module.exports = {
  forbidden: forbidden
    .filter((rule) => rule.name.startsWith("layer-"))
    .map((rule) => ({ ...rule, from: { ...rule.from, pathNot: TYPES_STILL_UP } })),
  options: { ...options, tsPreCompilationDeps: true },
};
