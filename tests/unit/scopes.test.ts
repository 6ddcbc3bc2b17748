import { describe, expect, it } from "vitest";
import { grants, scopesOfAccess, SCOPES } from "@/lib/auth/scopes";

describe("API key scopes (docs/teams-and-keys.md#api-keys-and-scopes)", () => {
  it("nest read ⊂ write ⊂ admin", () => {
    expect(SCOPES.filter((scope) => grants(["read"], scope))).toEqual(["read"]);
    expect(SCOPES.filter((scope) => grants(["read", "write"], scope))).toEqual(["read", "write", "telemetry"]);
    expect(SCOPES.filter((scope) => grants(["admin"], scope))).toEqual(["read", "write", "admin", "telemetry"]);
  });

  it("keep telemetry apart: it sends telemetry and nothing else, and write and admin include it", () => {
    expect(SCOPES.filter((scope) => grants(["telemetry"], scope))).toEqual(["telemetry"]);
    expect(grants(["write"], "telemetry")).toBe(true);
    expect(grants(["read"], "telemetry")).toBe(false);
    expect(grants([], "read")).toBe(false);
    expect(grants(["unknown"], "read")).toBe(false);
  });

  it("give a key made with one choice of access the scopes of that level", () => {
    expect(scopesOfAccess("read")).toEqual(["read"]);
    expect(scopesOfAccess("write")).toEqual(["read", "write"]);
    expect(scopesOfAccess("admin")).toEqual(["read", "write", "admin"]);
    expect(scopesOfAccess("telemetry")).toEqual(["telemetry"]);
    expect(scopesOfAccess("root")).toEqual([]);
  });
});
