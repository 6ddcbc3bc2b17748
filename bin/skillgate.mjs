#!/usr/bin/env node
// The `skillgate` command. It runs the TypeScript sources directly (through tsx), so the checks it
// makes before a sync are the server's own, not a copy.
import { fileURLToPath } from "node:url";
import path from "node:path";
import { register } from "tsx/esm/api";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
register({ tsconfig: path.join(root, "tsconfig.json") });
const { main } = await import("../cli/main.ts");
const code = await main(
  process.argv.slice(2),
  process.env,
  (line) => console.log(line),
  (line) => console.error(line),
);
process.exit(code);
