import { describe, expect, it } from "vitest";
import { installerRoute } from "@/lib/http/installer-paths";

describe("installerRoute", () => {
  it("sends the keyed index and its files to the skills-index route, query aside", () => {
    expect(installerRoute("/.well-known/skills/index.json")).toBe("/api/skills-index/index.json");
    expect(installerRoute("/.well-known/skills/bom-notes/scripts/run%20me.sh")).toBe("/api/skills-index/bom-notes/scripts/run%20me.sh");
  });

  it("sends an install link's index to the install-link route with its token", () => {
    expect(installerRoute("/i/sgl_abc123/.well-known/skills/index.json")).toBe("/api/install-link/sgl_abc123/index.json");
    expect(installerRoute("/i/sgl_abc123/.well-known/skills/a/SKILL.md")).toBe("/api/install-link/sgl_abc123/a/SKILL.md");
  });

  it("leaves every other path alone", () => {
    for (const path of [
      "/.well-known/skills",
      "/.well-known/other/index.json",
      "/i/tok/index.json",
      "/i/a/b/.well-known/skills/x",
      "/t/demo",
      "/",
    ]) {
      expect(installerRoute(path)).toBeNull();
    }
  });
});
