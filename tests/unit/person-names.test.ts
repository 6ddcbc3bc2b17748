import { describe, expect, it } from "vitest";
import { isHashedPerson, personName } from "@/lib/telemetry/person-names";

/** How the dashboard names a person telemetry reported: an email as it is, Claude Code's hash never as hex. */
describe("person names", () => {
  const hash = "9b2f".repeat(16);

  it("tells Claude Code's 64-hex user.id from an email or an account id", () => {
    expect(isHashedPerson(hash)).toBe(true);
    expect(isHashedPerson(hash.toUpperCase())).toBe(true);
    expect(isHashedPerson(hash.slice(1))).toBe(false);
    expect(isHashedPerson(`${hash}0`)).toBe(false);
    expect(isHashedPerson("ana@example.com")).toBe(false);
    expect(isHashedPerson("a1b2c3d4-0000-4000-8000-000000000001")).toBe(false);
    expect(isHashedPerson("z".repeat(64))).toBe(false);
  });

  it("names a hash by its number in the team, an email by itself", () => {
    const numbers = new Map([[hash, 2]]);
    expect(personName(hash, numbers)).toEqual({ name: "unknown person #2", unknown: true });
    expect(personName(hash.toUpperCase(), numbers)).toEqual({ name: "unknown person #2", unknown: true });
    expect(personName("ana@example.com", numbers)).toEqual({ name: "ana@example.com", unknown: false });
  });

  it("never shows a hash it has no number for as hex", () => {
    expect(personName("0".repeat(64), new Map())).toEqual({ name: "unknown person", unknown: true });
  });
});
