import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The code cites the project's own docs — `docs/outages.md#stale-answers`, `docs/telemetry.md,
 * "Attribution"`, `docs/decisions/layers.md` — so a maintainer never needs a file outside the
 * repository. A citation that names a file, anchor or heading that does not exist sends them
 * nowhere: this finds every one.
 */

const CODE = [
  "lib",
  "app",
  "components",
  "db",
  "tests",
  "scripts",
  "cli",
  "bin",
  "hooks",
  "deploy",
  ".ci",
  "proxy.ts",
  "instrumentation.ts",
  "next.config.ts",
  ".dependency-cruiser.cjs",
  "Dockerfile",
  "compose.yaml",
];
const SKIP_DIRS = new Set(["node_modules", ".artifacts", "fixtures"]);
const CODE_FILE = /\.(ts|tsx|mts|js|mjs|cjs|sql|css|yaml|yml)$|(^|\/)(Dockerfile|run)$/;
/** Paths of other repositories' layouts, as data: not citations. */
const NOT_CITATIONS = new Set(["tests/helpers/repository-layouts.ts", "tests/unit/doc-references.test.ts"]);

// `docs/x.md`, `docs/decisions/x.md` or with `#anchor`, then perhaps `, "Heading"` (wrapped onto a comment's next line) or ` ("Heading")`.
const CITATION = /docs\/(?:[a-z0-9-]+\/)?[a-z0-9-]+\.md(?:#([\w-]+))?(?:,\s*(?:(?:\*|\/\/|--|#)\s*)?"([^"]+)"| \("([^"]+)"\))?/g;

function codeFiles(target: string): string[] {
  if (!existsSync(target)) return [];
  if (!statSync(target).isDirectory()) return CODE_FILE.test(target) ? [target] : [];
  return readdirSync(target)
    .filter((entry) => !SKIP_DIRS.has(entry))
    .flatMap((entry) => codeFiles(path.join(target, entry)));
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .trim()
    .replace(/\s/g, "-");
}

function headingsOf(markdown: string): string[] {
  let fenced = false;
  const headings: string[] = [];
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const text = fenced ? undefined : /^#{1,6} (.+)$/.exec(line)?.[1];
    if (text) headings.push(text.replace(/`/g, "").trim());
  }
  return headings;
}

/** Every citation of the docs in `text` that leads nowhere, as `<file>:<line> <citation>: <why>`. */
function brokenCitations(file: string, text: string, readDoc: (doc: string) => string | null): string[] {
  const broken: string[] = [];
  for (const match of text.matchAll(CITATION)) {
    const [cited, anchor, afterComma, inParentheses] = match;
    const doc = cited.slice(0, cited.indexOf(".md") + 3);
    const where = `${file}:${text.slice(0, match.index).split("\n").length} ${cited.replace(/\s+/g, " ")}`;
    const markdown = readDoc(doc);
    if (markdown === null) {
      broken.push(`${where}: no file ${doc}`);
      continue;
    }
    const headings = headingsOf(markdown);
    if (anchor && !headings.some((h) => anchorOf(h) === anchor)) broken.push(`${where}: ${doc} has no heading #${anchor}`);
    const heading = (afterComma ?? inParentheses)?.replace(/\s*\n\s*(?:\*|\/\/|--|#)?\s*/g, " ");
    if (heading && !headings.includes(heading)) broken.push(`${where}: ${doc} has no heading "${heading}"`);
  }
  return broken;
}

function readDoc(doc: string): string | null {
  return existsSync(doc) ? readFileSync(doc, "utf8") : null;
}

describe("the code's citations of docs/", () => {
  it("each names a file, anchor and heading that exist", () => {
    const files = CODE.flatMap(codeFiles).filter((file) => !NOT_CITATIONS.has(file));
    expect(files.length).toBeGreaterThan(300);
    const broken = files.flatMap((file) => brokenCitations(file, readFileSync(file, "utf8"), readDoc));
    expect(broken).toEqual([]);
  });

  it("finds a missing file, a missing anchor and a heading that is not one", () => {
    const docs: Record<string, string> = { "docs/a.md": "# A\n\n## Stale answers\n\n```\n## Not a heading\n```\n" };
    const text = [
      '// docs/a.md#stale-answers, docs/a.md, "Stale answers" and docs/a.md ("Stale answers") lead somewhere',
      "// docs/b.md does not exist",
      '// docs/a.md#stale does not, nor docs/a.md, "Not a heading"',
      " * nor docs/a.md,",
      ' * "Stale"',
    ].join("\n");
    expect(brokenCitations("x.ts", text, (doc) => docs[doc] ?? null)).toEqual([
      "x.ts:2 docs/b.md: no file docs/b.md",
      "x.ts:3 docs/a.md#stale: docs/a.md has no heading #stale",
      'x.ts:3 docs/a.md, "Not a heading": docs/a.md has no heading "Not a heading"',
      'x.ts:4 docs/a.md, * "Stale": docs/a.md has no heading "Stale"',
    ]);
  });

  it("makes anchors as GitHub does", () => {
    expect(anchorOf("Behind PgBouncer or Neon's pooler (transaction mode)")).toBe("behind-pgbouncer-or-neons-pooler-transaction-mode");
    expect(anchorOf("skill_view")).toBe("skill_view");
    expect(anchorOf("Start-up: where the time goes")).toBe("start-up-where-the-time-goes");
  });
});
