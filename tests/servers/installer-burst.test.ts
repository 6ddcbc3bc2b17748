import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { installerCatalog, syncBody } from "../helpers/installer-catalog";
import { scratchDatabase } from "../helpers/scratch-database";
import { startServer, type RunningServer } from "../helpers/server";
import { runSkillsInstaller } from "../helpers/skills-installer";

const KEY = "sg_installer_burst_test_key_000001";
const RUNS = 5;

/** Every file under `root`, by its path relative to it. */
function filesUnder(root: string, prefix = ""): Map<string, Buffer> {
  const found = new Map<string, Buffer>();
  for (const entry of readdirSync(path.join(root, prefix))) {
    const relative = prefix ? `${prefix}/${entry}` : entry;
    if (statSync(path.join(root, relative)).isDirectory()) for (const [file, bytes] of filesUnder(root, relative)) found.set(file, bytes);
    else found.set(relative, readFileSync(path.join(root, relative)));
  }
  return found;
}

/**
 * The real `skills` installer against a freshly started server on PostgreSQL (issue 38): it asks
 * for every file of the catalog at once and drops any that fails without a word, so an install is
 * complete only if the server answered all of them. Each run is against a server just started, its
 * memory empty, with the default pool.
 */
describe.runIf(process.env.TEST_DATABASE_URL)("the skills installer on a freshly started server", () => {
  it(`installs 130 skills and their 2,002 files, every byte, ${RUNS} times in a row`, async () => {
    const catalog = installerCatalog(130);
    expect(catalog.length).toBe(2_002);
    const scratch = await scratchDatabase("skillgate_installer");
    const env = { DATABASE_URL: scratch.url, SKILLGATE_DEMO: "0", SKILLGATE_INIT_TEAM: "installers", SKILLGATE_INIT_API_KEY: KEY };
    let server: RunningServer | undefined = await startServer(env);
    try {
      const headers = { authorization: `Bearer ${KEY}`, "content-type": "application/json" };
      const sync = await fetch(`${server.url}/api/v1/skills/sync`, { method: "POST", headers, body: syncBody(catalog) });
      expect(sync.status).toBe(200);
      const created = await fetch(`${server.url}/api/v1/install-links`, { method: "POST", headers });
      expect(created.status).toBe(201);
      const linkPath = new URL(((await created.json()) as { url: string }).url).pathname;
      const index = (await (await fetch(`${server.url}/.well-known/skills/index.json`, { headers })).json()) as {
        skills: { name: string; files: string[] }[];
      };
      // The team's 130 and the built-in skills every team sees, each with every file the index lists.
      const expectedFiles = index.skills.reduce((sum, skill) => sum + skill.files.length, 0);
      expect(expectedFiles).toBeGreaterThan(2_002);

      for (let run = 1; run <= RUNS; run++) {
        await server.stop();
        server = undefined;
        server = await startServer(env);
        const project = mkdtempSync(path.join(tmpdir(), "skillgate-installer-burst-"));
        const installed = await runSkillsInstaller(
          ["add", `${server.url}${linkPath}`, "--skill", "*", "--agent", "claude-code", "--yes", "--copy"],
          project,
        );
        expect(installed.code, installed.out).toBe(0);
        const got = filesUnder(path.join(project, ".claude", "skills"));
        // What the installer could not fetch, and what the server said meanwhile: why a file is missing.
        // Its spinner shares the terminal: a line may come in the middle of one of its frames.
        const failed = installed.out.match(/fetch failed: [^\r\n]*/g) ?? [];
        const why = `run ${run}\n${failed.join("\n")}\nserver:\n${server.output()}`;
        // Through the link, only the index we do not serve (agent-skills/, which it asks for first) may
        // fail, and its 404 is said: the observer of the installer's fetches is loaded.
        expect(failed.filter((line) => line.includes(`${linkPath}/.well-known/agent-skills/index.json: HTTP 404`)).length, why).toBe(1);
        const failedThroughLink = failed.filter((line) => line.includes(linkPath) && !line.includes("/.well-known/agent-skills/"));
        expect(failedThroughLink, why).toEqual([]);
        expect(got.size, why).toBe(expectedFiles);
        const wrong = catalog.filter((file) => !got.get(file.path)?.equals(file.content)).map((file) => file.path);
        expect(wrong, `run ${run}: files missing or different`).toEqual([]);
      }
      // Nothing the burst met was taken for an outage or for load.
      expect(server.output()).not.toMatch(/DatabaseUnavailable|Overloaded|database is unavailable/);
    } finally {
      await server?.stop();
      await scratch.drop();
    }
    // Five fresh servers, each ~2 s to start and ~13 s of its CPU for the install (Next's routing
    // on a cold process, ~6 ms a file): ~80 s on a quiet machine, more while the browser lane
    // shares the two cores. The project's 90 s was met in one CI and not the next.
  }, 240_000);
});
