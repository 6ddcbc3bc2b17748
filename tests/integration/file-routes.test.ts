import { describe, expect, it } from "vitest";
import { openApiDocument } from "@/lib/contracts/openapi";
import { useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";
import { skillMd } from "../helpers/skills";

/**
 * A skill's files as real clients reach them (issue 28): a nested path sent with its slashes as
 * they are, or percent-encoded as a client generated from the OpenAPI document sends a path
 * parameter (`scripts%2Frun.py`), answers the same bytes with the content type of its extension —
 * on the REST route, the installers' index with a key, and an install link — and the OpenAPI
 * document lists that type for that extension.
 */

const PDF = Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.from([0, 1, 2, 255, 254]), Buffer.from("\n%%EOF\n")]);
const BLOB = Buffer.from([0, 159, 146, 150, 0, 255]);

/** Each file, its bytes, and the content type it must be sent with (exact strings, not the map the server uses). */
const FILES: { path: string; bytes: Buffer; contentType: string; extension: string | null }[] = [
  { path: "reference/deep/a.md", bytes: Buffer.from("# Deep\n\nÜber ✓\n"), contentType: "text/markdown; charset=utf-8", extension: ".md" },
  { path: "scripts/run.py", bytes: Buffer.from("print('run')\n"), contentType: "text/x-python; charset=utf-8", extension: ".py" },
  { path: "assets/forms/form.pdf", bytes: PDF, contentType: "application/pdf", extension: ".pdf" },
  { path: "assets/data.json", bytes: Buffer.from('{"a": [1, 2]}\n'), contentType: "application/json", extension: ".json" },
  { path: "assets/blob.weird", bytes: BLOB, contentType: "application/octet-stream", extension: null },
  { path: "scripts/Makefile", bytes: Buffer.from("all:\n\ttrue\n"), contentType: "application/octet-stream", extension: null },
];

/** The path as a generated client sends one path parameter: every `/` encoded. */
const encoded = (path: string) => encodeURIComponent(path);

describe.each(testDbKinds)("a skill's files on %s", (kind) => {
  const t = useTestApp(kind);
  const doc = openApiDocument("/") as unknown as {
    paths: Record<string, { get: { responses: Record<string, { content: Record<string, { schema: { description: string } }> }> } }>;
  };

  const setUp = async () => {
    const sync = await t.call("POST", "/api/v1/skills/sync", {
      json: {
        files: [
          { path: "nested/SKILL.md", content: skillMd("nested", "Has nested files. Use when testing paths.") },
          ...FILES.map((file) => ({ path: `nested/${file.path}`, content: file.bytes.toString("base64"), encoding: "base64" })),
        ],
      },
    });
    expect(sync.status).toBe(200);
    const link = await t.call("POST", "/api/v1/install-links");
    expect(link.status).toBe(201);
    return { linkPath: new URL(((await link.json()) as { url: string }).url).pathname };
  };

  /** Status, content type and bytes of a GET. */
  const read = async (url: string, key?: null) => {
    const res = await t.call("GET", url, key === null ? { key: null } : {});
    return { status: res.status, contentType: res.headers.get("content-type"), bytes: Buffer.from(await res.arrayBuffer()) };
  };

  it("answers a nested path sent raw or %2F-encoded with the same bytes and its extension's type, on every file route", async () => {
    const { linkPath } = await setUp();
    const routes = [
      { what: "REST", url: (path: string) => `/api/v1/skills/nested/files/${path}`, key: undefined },
      { what: "index with a key", url: (path: string) => `/.well-known/skills/nested/${path}`, key: undefined },
      { what: "install link", url: (path: string) => `${linkPath}/.well-known/skills/nested/${path}`, key: null },
    ] as const;
    let answered = 0;
    for (const file of FILES) {
      const [first, ...rest] = file.path.split("/");
      // Raw, all encoded, and half and half (a client that encodes only what follows the first folder).
      for (const form of [file.path, encoded(file.path), `${first}/${encoded(rest.join("/"))}`]) {
        for (const route of routes) {
          const got = await read(route.url(form), route.key);
          expect({ ...got, bytes: got.bytes.toString("hex") }, `${route.what} ${form}`).toEqual({
            status: 200,
            contentType: file.contentType,
            bytes: file.bytes.toString("hex"),
          });
          answered++;
        }
      }
    }
    expect(answered).toBe(FILES.length * 3 * 3);
  });

  it("lists, in the OpenAPI document, the type each extension is sent with", async () => {
    await setUp();
    for (const path of [
      "/api/v1/skills/{name}/files/{path}",
      "/.well-known/skills/{name}/{file}",
      "/i/{token}/.well-known/skills/{name}/{file}",
    ]) {
      const content = doc.paths[path]!.get.responses["200"]!.content;
      for (const file of FILES) {
        const res = await t.call("GET", `/api/v1/skills/nested/files/${encoded(file.path)}`);
        const sent = res.headers.get("content-type")!;
        expect(Object.keys(content), `${path} ${file.path}`).toContain(sent);
        expect(content[sent]!.schema.description, `${path} ${file.path}`).toEqual(
          file.extension === null
            ? "a file with any other extension, or none"
            : expect.stringMatching(new RegExp(`^a file ending (\\.[a-z]+ or )*\\${file.extension}( or \\.[a-z]+)*$`)),
        );
      }
    }
  });

  it("answers SKILL.md on the installers' routes as text/markdown, the type the map gives .md", async () => {
    const { linkPath } = await setUp();
    for (const [url, key] of [
      ["/.well-known/skills/nested/SKILL.md", undefined],
      [`${linkPath}/.well-known/skills/nested/SKILL.md`, null],
    ] as const) {
      const got = await read(url, key);
      expect([got.status, got.contentType, got.bytes.toString()]).toEqual([
        200,
        "text/markdown; charset=utf-8",
        skillMd("nested", "Has nested files. Use when testing paths."),
      ]);
    }
  });

  it("refuses an encoded way out of the folder as it refuses a raw one", async () => {
    await setUp();
    // (A raw `..` never arrives: URL parsers, fetch's included, resolve it before sending.)
    for (const path of ["..%2F..%2Fetc%2Fpasswd", "reference%2F..%2F..%2FSKILL.md", "reference/..%2F..%2FSKILL.md"]) {
      const res = await t.call("GET", `/api/v1/skills/nested/files/${path}`);
      expect([res.status, ((await res.json()) as { error: { code: string } }).error.code], path).toEqual([400, "InvalidPath"]);
    }
  });
});
