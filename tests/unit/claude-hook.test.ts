import { describe, expect, it } from "vitest";
// @ts-expect-error — a plain .mjs script shipped for Claude Code, without types
import { report, skillOf } from "../../hooks/claude-code/report-skill-load.mjs";

describe("the Claude Code hook", () => {
  it("reads the skill name from the Skill tool's input, whatever Claude Code calls the field", () => {
    expect(skillOf({ tool_input: { skill: "review-guide" } })).toBe("review-guide");
    expect(skillOf({ tool_input: { command: "/review-guide" } })).toBe("review-guide");
    expect(skillOf({ tool_input: { skill: "my-plugin:review-guide" } })).toBe("review-guide");
    expect(skillOf({ tool_input: {} })).toBeNull();
  });

  it("posts one view with the session id, and ignores other tools", async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    const fetchImpl = async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response(null, { status: 201 });
    };
    expect(await report({ tool_name: "Bash", tool_input: { command: "ls" } }, { url: "http://x", key: "k", fetchImpl })).toEqual({
      skipped: "not a Skill tool call",
    });
    expect(
      await report({ tool_name: "Skill", session_id: "s-1", tool_input: { skill: "tdd" } }, { url: "http://x/", key: "k", fetchImpl }),
    ).toEqual({ status: 201, skill: "tdd" });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe("http://x/api/v1/usage/views");
    expect(calls[0]!.init.body).toBe('{"skill":"tdd","sessionId":"s-1"}');
    expect((calls[0]!.init.headers as Record<string, string>).authorization).toBe("Bearer k");
  });
});
