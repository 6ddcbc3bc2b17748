import { describe, expect, it } from "vitest";
import { installerRoute } from "@/lib/http/installer-paths";

describe("installerRoute", () => {
  it("sends the keyed index and its files to the skills-index route, query aside", () => {
    expect(installerRoute("/.well-known/skills/index.json")).toBe("/api/skills-index/index.json");
    expect(installerRoute("/.well-known/skills/bom-notes/scripts/run%20me.sh")).toBe("/api/skills-index/bom-notes/scripts/run%20me.sh");
  });

  it("answers the bare .well-known/skills folder, with or without its slash, as the index", () => {
    expect(installerRoute("/.well-known/skills")).toBe("/api/skills-index/index.json");
    expect(installerRoute("/.well-known/skills/")).toBe("/api/skills-index/index.json");
    expect(installerRoute("/i/sgl_abc123/.well-known/skills")).toBe("/api/install-link/sgl_abc123/index.json");
    expect(installerRoute("/i/sgl_abc123/.well-known/skills/")).toBe("/api/install-link/sgl_abc123/index.json");
  });

  it("sends an install link's index to the install-link route with its token", () => {
    expect(installerRoute("/i/sgl_abc123/.well-known/skills/index.json")).toBe("/api/install-link/sgl_abc123/index.json");
    expect(installerRoute("/i/sgl_abc123/.well-known/skills/a/SKILL.md")).toBe("/api/install-link/sgl_abc123/a/SKILL.md");
  });

  it("sends every other path under an install link to the route that checks its token", () => {
    for (const path of [
      "/i/tok",
      "/i/tok/",
      "/i/tok/index.json",
      "/i/tok/anything/else",
      "/i/tok/.well-known/skillsX",
      "/i/tok/.well-known/other/index.json",
      "/i/tok/b/.well-known/skills/x",
    ]) {
      expect(installerRoute(path), path).toBe("/api/install-link/tok");
    }
  });

  it("leaves every other path alone", () => {
    for (const path of [
      "/.well-known/other/index.json",
      "/.well-known/skillsX",
      "/.well-known",
      "/i",
      "/i/",
      "/invite/abc",
      "/t/demo",
      "/",
    ]) {
      expect(installerRoute(path), path).toBeNull();
    }
  });
});
