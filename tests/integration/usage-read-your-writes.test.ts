import { NO_PRODUCTION_ENTRY } from "../helpers/telemetry";
import { describe, expect, it } from "vitest";
import { teamOverview } from "@/lib/overview/overview";
import { useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";

// The test app's view buffer waits 60 s (or 1,000 views) before it writes: every view below is
// still in memory when usage is read, so only the reads' own flush can make them count.
describe.each(testDbKinds)("usage reads what this instance acknowledged, on %s", (kind) => {
  const t = useTestApp(kind);

  const view = async (name: string, session: string) => {
    const res = await t.call("GET", `/api/v1/skills/${name}`, { headers: { "x-agent-session": session } });
    expect(res.status).toBe(200);
  };

  it("counts a view in GET /api/v1/usage right after GET /api/v1/skills/<name>", async () => {
    await view("writing-plans", "s1");
    expect(t.app.views.pending).toBe(1);
    const first = await (await t.call("GET", "/api/v1/usage")).json();
    expect(first.skills).toEqual([
      {
        name: "writing-plans",
        views7d: 1,
        views30d: 1,
        lastViewedAt: expect.any(String),
        sessions: 1,
        activations: { proactive: 0, slash: 0, nested: 0 },
        people: 0,
        typedOnly: false,
        proactivePer100Prompts: null,
        ...NO_PRODUCTION_ENTRY,
      },
    ]);
    expect(first.coLoaded).toEqual([]);
    expect(t.app.views.pending).toBe(0);

    await view("systematic-debugging", "s1");
    await view("writing-plans", "s2");
    await view("systematic-debugging", "s2");
    await view("writing-plans", "s2");
    expect(t.app.views.pending).toBe(4);
    const usage = await (await t.call("GET", "/api/v1/usage")).json();
    expect(usage.skills).toEqual([
      {
        name: "writing-plans",
        views7d: 3,
        views30d: 3,
        lastViewedAt: expect.any(String),
        sessions: 2,
        activations: { proactive: 0, slash: 0, nested: 0 },
        people: 0,
        typedOnly: false,
        proactivePer100Prompts: null,
        ...NO_PRODUCTION_ENTRY,
      },
      {
        name: "systematic-debugging",
        views7d: 2,
        views30d: 2,
        lastViewedAt: expect.any(String),
        sessions: 2,
        activations: { proactive: 0, slash: 0, nested: 0 },
        people: 0,
        typedOnly: false,
        proactivePer100Prompts: null,
        ...NO_PRODUCTION_ENTRY,
      },
    ]);
    expect(usage.coLoaded).toEqual([{ a: "systematic-debugging", b: "writing-plans", sessions: 2, share: 1 }]);
    expect(usage.neverLoaded).not.toContain("writing-plans");
    expect(t.app.views.pending).toBe(0);

    const beta = await (await t.call("GET", "/api/v1/usage", { key: t.beta.key })).json();
    expect(beta.skills).toEqual([]);
  });

  it("counts them in the overview's headline and rows as well", async () => {
    // The five views the test above leaves, written: three of writing-plans, two of systematic-debugging.
    const earlier: [string, string][] = [
      ["writing-plans", "s1"],
      ["systematic-debugging", "s1"],
      ["writing-plans", "s2"],
      ["systematic-debugging", "s2"],
      ["writing-plans", "s2"],
    ];
    for (const [name, session] of earlier) await view(name, session);
    await t.app.views.flush();
    await view("writing-plans", "s3");
    expect(t.app.views.pending).toBe(1);
    const overview = await teamOverview(t.app, t.alpha.team);
    expect(overview.headline.viewsThisWeek).toBe(6);
    expect(overview.table.rows.find((row) => row.name === "writing-plans")).toMatchObject({ views7d: 4, views30d: 4, neverLoaded: false });
    expect(t.app.views.pending).toBe(0);
  });
});
