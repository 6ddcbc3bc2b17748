import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { cruise, type IForbiddenRuleType } from "dependency-cruiser";
import { afterEach, describe, expect, it } from "vitest";

/**
 * The layer check of `npm run lint` (.dependency-cruiser.cjs), run on a small tree shaped like the app:
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
  const roots = [...new Set(Object.keys(files).map((file) => file.split("/")[0]!))];
  const { output } = await cruise(
    roots,
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

  /** db/ under a capability, the root over delivery, and a route handler, a component and a page on top. */
  const WITH_PAGES: Record<string, string> = {
    ...CLEAN,
    "db/client.ts": `export const openDatabase = () => "memory://";\n`,
    "db/outage.ts": `export const describe = (error: Error) => error.message;\n`,
    "lib/teams/teams.ts": `import { code } from "../errors";\nimport { openDatabase } from "../../db/client";\nexport const getTeam = () => code + openDatabase();\n`,
    "lib/root/app.ts": `import { respond } from "../http/respond";\nexport const createApp = () => respond;\n`,
    "app/api/health/route.ts": `import { describe } from "../../../db/outage";\nimport { respond } from "../../../lib/http/respond";\nexport const GET = () => [describe, respond];\n`,
    "components/card.ts": `import { parse } from "../lib/skills/name";\nexport const Card = () => parse();\n`,
    "app/t/page.ts": `import { createApp } from "../../lib/root/app";\nimport { Card } from "../../components/card";\nexport const Page = () => [createApp, Card];\n`,
  };

  it("passes pages that import the root and components, and route handlers that import db/ as delivery does", async () => {
    expect(await violations(WITH_PAGES)).toEqual([]);
  });

  it("fails a page that imports db/", async () => {
    const planted = {
      ...WITH_PAGES,
      "app/t/page.ts": `import { openDatabase } from "../../db/client";\nexport const Page = () => openDatabase();\n`,
    };
    expect(await violations(planted)).toEqual(["pages-not-db"]);
  });

  it("fails a component that imports db/ or the root", async () => {
    const fromDb = {
      ...WITH_PAGES,
      "components/card.ts": `import { openDatabase } from "../db/client";\nexport const Card = () => openDatabase();\n`,
    };
    expect(await violations(fromDb)).toEqual(["pages-not-db"]);
    const fromRoot = {
      ...WITH_PAGES,
      "components/card.ts": `import { createApp } from "../lib/root/app";\nexport const Card = () => createApp();\n`,
    };
    expect(await violations(fromRoot)).toEqual(["layer-components"]);
  });

  it("fails delivery that imports a component", async () => {
    const planted = {
      ...CLEAN,
      "components/badge.ts": `export const Badge = () => "new";\n`,
      "lib/http/respond.ts": `import { parse } from "../skills/name";\nimport { Badge } from "../../components/badge";\nexport const respond = () => [parse, Badge];\n`,
    };
    expect(await violations(planted)).toEqual(["layer-delivery"]);
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
