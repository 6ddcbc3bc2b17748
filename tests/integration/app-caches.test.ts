import { describe, expect, it } from "vitest";
import { loadSkillContent } from "@/lib/skills/view";
import { syncWorkspace } from "@/lib/skills/sync";
import { getTeam } from "@/lib/teams/teams";
import { useTestApp, type TestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";
import { skillMd } from "../helpers/skills";

/**
 * Caches belong to the app: two apps in one process (two instances, or the PGlite and PostgreSQL
 * passes of one test run) never answer from each other's. Both apps have a team "alpha" with the
 * same id, and a skill of the same name and version with a different body.
 */
describe.each(testDbKinds)("caches of two apps in one process on %s", (kind) => {
  const first = useTestApp(kind);
  const second = useTestApp(kind);

  const bodyOf = async (t: TestApp, body: string) => {
    const file = {
      path: "shared/SKILL.md",
      content: Buffer.from(skillMd("shared", "Shared. Use when testing caches.", body)),
      executable: false,
    };
    await syncWorkspace(t.app.db, t.app.catalogs, t.alpha.team.id, { files: [file], others: [] });
    const team = await getTeam(t.app.db, t.alpha.team.id);
    return (await loadSkillContent(t.app.db, t.app.catalogs, team, "shared")).body;
  };

  it("reads each app's own bytes for the same team id, skill name and version", async () => {
    expect(first.alpha.team.id).toBe(second.alpha.team.id);
    expect(await bodyOf(first, "# First app\n")).toBe("# First app\n");
    expect(await bodyOf(second, "# Second app\n")).toBe("# Second app\n");
  });
});
