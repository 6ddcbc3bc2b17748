import { describe, expect, it } from "vitest";
import { DEFAULT_POOL_SIZE } from "@/db/client";
import { installApp } from "@/lib/current-app";
import { anotherInstance, changesHeard, useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";
import { installerCatalog, syncBody } from "../helpers/installer-catalog";
import { countStatements } from "../helpers/statement-counter";

/**
 * A burst of reads as the `skills` installer makes it (issue 38): every file of a catalog asked for
 * at once through an install link. What cannot change — a file of a skill at a given version — is
 * served from memory once the instance has it, so a warm instance answers the whole burst without
 * the database, and a cold one reads each skill's files once however many requests ask for them.
 */
const SKILLS = 25;
const BURST = 2_500;

describe.each(testDbKinds)("a burst of installer reads on %s", (kind) => {
  const t = useTestApp(kind);
  const catalog = installerCatalog(SKILLS);

  const setUp = async () => {
    const sync = await t.call("POST", "/api/v1/skills/sync", {
      body: syncBody(catalog),
      headers: { "content-type": "application/json" },
    });
    expect(sync.status).toBe(200);
    const link = await t.call("POST", "/api/v1/install-links");
    expect(link.status).toBe(201);
    return new URL(((await link.json()) as { url: string }).url).pathname;
  };

  /** BURST requests at once, cycling through every file of the catalog; how many answered with the file's exact bytes. */
  const burst = async (linkPath: string) => {
    const answers = await Promise.all(
      Array.from({ length: BURST }, async (_, i) => {
        const file = catalog[i % catalog.length]!;
        const res = await t.call("GET", `${linkPath}/.well-known/skills/${file.path}`, { key: null });
        const bytes = Buffer.from(await res.arrayBuffer());
        return res.status === 200 && bytes.equals(file.content);
      }),
    );
    return answers.filter(Boolean).length;
  };

  it("answers every request of a cold instance, reading each skill's files once, and a warm one without the database", async () => {
    expect(catalog.length).toBe(20 * 17 + 5 * 9);
    const linkPath = await setUp();
    await changesHeard(t.app);
    // A freshly started instance on the same database: nothing in memory yet.
    const cold = anotherInstance(t.app);
    const uninstall = installApp(cold);
    try {
      const first = countStatements(cold.db);
      try {
        expect(await burst(linkPath)).toBe(BURST);
      } finally {
        first.stop();
      }
      // Each skill's SKILL.md and its other files once (two queries), the link and the catalog once,
      // and on a server each new pooled connection's LISTEN: far fewer than one per file.
      expect(first.count).toBeGreaterThanOrEqual(2 * SKILLS);
      expect(first.count).toBeLessThanOrEqual(2 * SKILLS + 6 + (kind === "postgres" ? DEFAULT_POOL_SIZE : 0));

      const warm = countStatements(cold.db);
      try {
        expect(await burst(linkPath)).toBe(BURST);
      } finally {
        warm.stop();
      }
      expect(warm.statements).toEqual([]);
    } finally {
      uninstall();
      await cold.close();
    }
  });

  it("reads a key and a skill's body once for a burst of skill_view on a cold instance", async () => {
    await setUp();
    const cold = anotherInstance(t.app);
    const uninstall = installApp(cold);
    const counter = countStatements(cold.db);
    try {
      const answers = await Promise.all(Array.from({ length: BURST }, () => t.call("GET", "/api/v1/skills/inst-0003")));
      expect(answers.filter((res) => res.status === 200).length).toBe(BURST);
      expect(await answers[0]!.text()).toBe(
        `[skill inst-0003 | file | v1 | skills/inst-0003]\n${catalog[3 * 17]!.content.toString().split("---\n")[2]}`,
      );
    } finally {
      counter.stop();
      uninstall();
      await cold.close();
    }
    // The key, the catalog (four tables), the body: views are buffered, written later in one batch.
    expect(counter.count).toBeLessThanOrEqual(8 + (kind === "postgres" ? DEFAULT_POOL_SIZE : 0));
  });
  it("reads the team's labels once for a burst of labelled skill_view on a cold instance, a typo's burst included", async () => {
    await setUp();
    const must = async (res: Promise<Response>) => expect((await res).status).toBeLessThan(300);
    await must(
      t.call("POST", "/api/v1/skills", {
        json: { name: "burst-notes", description: "Notes. Use when bursting.", body: "# v1\n", status: "active" },
      }),
    );
    await must(t.call("PUT", "/api/v1/skills/burst-notes", { json: { body: "# v2\n", expectedVersion: 1 } }));
    await must(t.call("PUT", "/api/v1/skills/burst-notes/labels/canary", { json: { version: 1 } }));
    const cold = anotherInstance(t.app);
    const uninstall = installApp(cold);
    const counter = countStatements(cold.db);
    try {
      const [labelled, typos] = await Promise.all([
        Promise.all(Array.from({ length: BURST }, () => t.call("GET", "/api/v1/skills/burst-notes?label=canary"))),
        Promise.all(Array.from({ length: BURST }, () => t.call("GET", "/api/v1/skills/burst-notes?label=canray"))),
      ]);
      expect(labelled.map((res) => res.status)).toEqual(Array(BURST).fill(200));
      expect([await labelled[0]!.text(), labelled[0]!.headers.get("x-skill-served-why")]).toEqual([
        "[skill burst-notes | learned | v1]\n# v1\n",
        "label",
      ]);
      expect(typos.map((res) => res.status)).toEqual(Array(BURST).fill(404));
    } finally {
      counter.stop();
      uninstall();
      await cold.close();
    }
    // The key, the team's labels, the labelled catalog (four tables), the body: once each, not once a request.
    expect(counter.count).toBeLessThanOrEqual(9 + (kind === "postgres" ? DEFAULT_POOL_SIZE : 0));
  });
});
