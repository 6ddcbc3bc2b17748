import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { cruise, type IForbiddenRuleType } from "dependency-cruiser";
import { afterEach, describe, expect, it } from "vitest";

/**
 * The layer check of `npm run lint` (.dependency-cruiser.cjs), run on a small tree shaped like lib/:
 * the tree as it should be passes, and each kind of violation fails with its rule's name.
 */
const config = createRequire(import.meta.url)("../../.dependency-cruiser.cjs") as { forbidden: IForbiddenRuleType[] };
/** Its second pass, which counts imports of types only (.dependency-cruiser-types.cjs). */
const typesConfig = createRequire(import.meta.url)("../../.dependency-cruiser-types.cjs") as { forbidden: IForbiddenRuleType[] };

/** teams ← listing ← skills ← http, each importing the one below it, as the real folders do. */
const CLEAN: Record<string, string> = {
  "lib/errors.ts": `export const code = "NameCollision";\n`,
  "lib/teams/teams.ts": `import { code } from "../errors";\nexport const getTeam = () => code;\n`,
  "lib/listing/snapshots.ts": `import { getTeam } from "../teams/teams";\nexport const record = () => getTeam();\n`,
  "lib/skills/name.ts": `import { record } from "../listing/snapshots";\nexport const parse = () => record();\n`,
  "lib/http/respond.ts": `import { parse } from "../skills/name";\nexport const respond = () => parse();\n`,
};

const trees: string[] = [];
afterEach(() => {
  for (const tree of trees.splice(0)) rmSync(tree, { recursive: true, force: true });
});

async function violations(files: Record<string, string>, pass = { config, tsPreCompilationDeps: false }): Promise<string[]> {
  const tree = mkdtempSync(path.join(tmpdir(), "skillgate-layers-"));
  trees.push(tree);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
    writeFileSync(path.join(tree, file), text);
  }
  const { output } = await cruise(
    ["lib"],
    { baseDir: tree, validate: true, ruleSet: { forbidden: pass.config.forbidden }, tsPreCompilationDeps: pass.tsPreCompilationDeps },
    { extensions: [".ts"] },
  );
  if (typeof output === "string") throw new Error("expected a cruise result, not a report");
  return [...new Set(output.summary.violations.map((violation) => violation.rule.name))].sort();
}

describe("the layer check", () => {
  it("passes a tree whose imports point down", async () => {
    expect(await violations(CLEAN)).toEqual([]);
  });

  it("fails an import from a capability up into delivery", async () => {
    const planted = {
      ...CLEAN,
      "lib/mcp/tools.ts": `export const tools = ["skill_view"];\n`,
      "lib/teams/teams.ts": `import { code } from "../errors";\nimport { tools } from "../mcp/tools";\nexport const getTeam = () => code + tools.length;\n`,
    };
    expect(await violations(planted)).toEqual(["layer-capabilities"]);
  });

  it("fails two capability folders that import each other, and the circle of files it makes", async () => {
    const planted = {
      ...CLEAN,
      "lib/teams/teams.ts": `import { record } from "../listing/snapshots";\nexport const getTeam = () => record;\n`,
    };
    expect(await violations(planted)).toEqual(["no-file-circle", "no-two-way-folders"]);
  });

  it("fails a folder of lib/ that belongs to no layer", async () => {
    const planted = {
      ...CLEAN,
      "lib/stray/thing.ts": `export const thing = 1;\n`,
      "lib/http/respond.ts": `import { thing } from "../stray/thing";\nexport const respond = () => thing;\n`,
    };
    expect(await violations(planted)).toEqual(["lib-in-a-layer"]);
  });

  it("does not count an import of types only", async () => {
    const planted = {
      ...CLEAN,
      "lib/teams/teams.ts": `import type { respond } from "../http/respond";\nexport type Respond = typeof respond;\nexport const getTeam = () => 1;\n`,
    };
    expect(await violations(planted)).toEqual([]);
  });
});

describe("the layer check of types", () => {
  const typesPass = { config: typesConfig, tsPreCompilationDeps: true };
  const app = `export interface App { db: string }\n`;

  it("passes a tree whose imports point down", async () => {
    expect(await violations(CLEAN, typesPass)).toEqual([]);
  });

  it("fails delivery naming the composition root's App", async () => {
    const planted = {
      ...CLEAN,
      "lib/root/app.ts": app,
      "lib/http/respond.ts": `import type { App } from "../root/app";\nimport { parse } from "../skills/name";\nexport const respond = (app: App) => app.db + parse();\n`,
    };
    expect(await violations(planted)).toEqual([]);
    expect(await violations(planted, typesPass)).toEqual(["layer-delivery"]);
  });

  it("fails a capability naming a type of delivery", async () => {
    const planted = {
      ...CLEAN,
      "lib/teams/teams.ts": `import type { respond } from "../http/respond";\nexport type Respond = typeof respond;\nexport const getTeam = () => 1;\n`,
    };
    expect(await violations(planted, typesPass)).toEqual(["layer-capabilities"]);
  });

  it("lets the slot of the process's App name the App's type, which is above it", async () => {
    const planted = {
      ...CLEAN,
      "lib/contracts/app.ts": app,
      "lib/current-app.ts": `import type { App } from "./contracts/app";\nexport const getApp = (): App | null => null;\n`,
    };
    expect(await violations(planted, typesPass)).toEqual([]);
  });
});
