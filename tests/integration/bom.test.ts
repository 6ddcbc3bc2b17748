import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";

/**
 * A SKILL.md that starts with a UTF-8 byte order mark (editors on Windows write one) comes back
 * with it, byte for byte, on every database: the installers' copy, its ETag and the version's hash.
 */
describe.each(testDbKinds)("a SKILL.md with a byte order mark on %s", (kind) => {
  const t = useTestApp(kind);
  const text = "\uFEFF---\r\nname: bom-skill\r\ndescription: Keeps its BOM. Use when an editor wrote one.\r\n---\r\n\uFEFF# Body\r\n";
  const bytes = Buffer.from(text, "utf8");
  const sha256 = createHash("sha256").update(bytes).digest("hex");

  it("serves the file byte for byte, with the SHA-256 of those bytes", async () => {
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const sync = await t.call("POST", "/api/v1/skills/sync", {
      json: { files: [{ path: "bom-skill/SKILL.md", content: bytes.toString("base64"), encoding: "base64" }] },
    });
    expect(sync.status).toBe(200);
    const file = await t.call("GET", "/.well-known/skills/bom-skill/SKILL.md");
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(bytes);
    expect(file.headers.get("etag")).toBe(`"${sha256}"`);
    const view = await t.call("GET", "/api/v1/skills/bom-skill");
    expect(view.headers.get("etag")).toBe(`"${sha256}"`);
    expect(await view.text()).toBe("[skill bom-skill | file | v1 | skills/bom-skill]\n\uFEFF# Body\r\n");
    const versions = (await (await t.call("GET", "/api/v1/skills/bom-skill/versions")).json()) as { versions: { sha256: string }[] };
    expect(versions.versions.map((version) => version.sha256)).toEqual([sha256]);
  });
});
