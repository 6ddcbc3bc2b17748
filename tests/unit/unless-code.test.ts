import { describe, expect, it } from "vitest";
import { AppError, unlessCode } from "@/lib/errors";

/** Issue 25: a `.catch` that once read any failure as "not there" now lets an outage (or a bug) through. */
describe("unlessCode", () => {
  it("turns our own error of the named codes into null", async () => {
    await expect(
      Promise.reject(new AppError("RunNotFound", "No activation run #9 in this team.")).catch(unlessCode("RunNotFound")),
    ).resolves.toBeNull();
    await expect(
      Promise.reject(new AppError("VersionNotFound", "'a' has no v9; it is at v2")).catch(unlessCode("SkillNotFound", "VersionNotFound")),
    ).resolves.toBeNull();
  });

  it("throws anything else on: another code, an outage, a bug", async () => {
    const outage = Object.assign(new Error("Connection terminated unexpectedly"), { code: "ECONNRESET" });
    await expect(Promise.reject(outage).catch(unlessCode("RunNotFound"))).rejects.toBe(outage);
    const forbidden = new AppError("Forbidden", "no");
    await expect(Promise.reject(forbidden).catch(unlessCode("RunNotFound"))).rejects.toBe(forbidden);
    const bug = new TypeError("x is undefined");
    await expect(Promise.reject(bug).catch(unlessCode("SkillNotFound"))).rejects.toBe(bug);
  });
});
