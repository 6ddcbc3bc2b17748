import { describe, expect, it } from "vitest";
import { eventSentence } from "@/lib/webhooks/messages";

/** A rollback's message says what agents get after it: the pin moved with it, kept, or none (issue 39). */
describe("skill.rolled_back's sentence", () => {
  const rolled = (served: { version: number; why: string }) =>
    eventSentence({ event: "skill.rolled_back", data: { skill: "release-notes", version: 4, revertOf: 1, from: 3, served } });

  it("says the pin moved, the pin kept, or nothing of a pin", () => {
    expect(rolled({ version: 4, why: "pinned" })).toBe(
      "release-notes was rolled back from v3: v4 has the content of v1. The pin moved to it, so agents get it.",
    );
    expect(rolled({ version: 2, why: "pinned" })).toBe(
      "release-notes was rolled back from v3: v4 has the content of v1. Agents keep v2: it stays pinned.",
    );
    expect(rolled({ version: 4, why: "latest" })).toBe("release-notes was rolled back from v3: v4 has the content of v1.");
  });
});
