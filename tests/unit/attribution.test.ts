import { describe, expect, it } from "vitest";
import { attributePrompt, type StoredEvent } from "@/lib/telemetry/attribution";

/** One prompt's events in, its figures per loaded skill out: which skill each tool call, failure and dollar belongs to. */

const T0 = Date.parse("2026-12-01T10:00:00.000Z");

function event(
  sequence: number | null,
  kind: StoredEvent["kind"],
  extra: Partial<StoredEvent> = {},
  atMs = (sequence ?? 0) * 1000,
): StoredEvent {
  return {
    kind,
    at: new Date(T0 + atMs),
    sequence,
    skillName: null,
    toolName: null,
    success: null,
    errorText: null,
    costUsd: null,
    tokens: null,
    person: "ana@example.com",
    ...extra,
  };
}
const activation = (sequence: number, skillName: string) => event(sequence, "activation", { skillName });
const tool = (sequence: number | null, toolName: string, success: boolean, errorText: string | null = null) =>
  event(sequence, "tool_result", { toolName, success, errorText });
const request = (sequence: number, costUsd: number, tokens: number, skillName: string | null = null) =>
  event(sequence, "api_request", { costUsd, tokens, skillName });

describe("attributing a prompt's events to the skill loaded", () => {
  it("gives what ran before the first activation to no skill, and the rest to the skill loaded since", () => {
    const figures = attributePrompt([
      event(1, "prompt"),
      request(2, 0.01, 100),
      activation(3, "writing-plans"),
      tool(4, "Read", true),
      tool(5, "Bash", false, "Exit code 3"),
      request(6, 0.02, 300, "writing-plans"),
      tool(7, "Bash", false, "Exit code 1"),
      event(8, "tool_rejection", { toolName: "Edit" }),
    ]);
    expect(figures).toEqual({
      loaded: true,
      at: new Date(T0 + 1000),
      promptMs: 7000,
      person: "ana@example.com",
      parts: [
        {
          skillName: "",
          from: new Date(T0 + 2000),
          activations: 0,
          toolCalls: 0,
          toolFailures: 0,
          rejections: 0,
          costUsd: 0.01,
          tokens: 100,
          toolsCalled: [],
          failing: [],
        },
        {
          skillName: "writing-plans",
          from: new Date(T0 + 3000),
          activations: 1,
          toolCalls: 3,
          toolFailures: 2,
          rejections: 1,
          costUsd: 0.02,
          tokens: 300,
          toolsCalled: ["Read", "Bash"],
          failing: [{ tool: "Bash", failures: 2, error: "Exit code 3" }],
        },
      ],
    });
  });

  it("orders by event.sequence, not by arrival or by time, so a tool result stored before its activation still belongs to it", () => {
    // Arrival order: the tool result first; its time ties with the activation's to the millisecond.
    const figures = attributePrompt([tool(5, "Bash", false), activation(4, "tdd")].map((e) => ({ ...e, at: new Date(T0) })));
    expect(figures.parts.map((part) => [part.skillName, part.toolFailures])).toEqual([["tdd", 1]]);
  });

  it("gives an API request to the skill it names, else to none: the call that chose the skill is logged after the activation", () => {
    // As the real CLI sends it (tests/fixtures/claude-code-events.json): the choosing call's request comes after skill_activated.
    const figures = attributePrompt([
      event(5, "prompt"),
      activation(7, "tdd"),
      request(9, 0.00726, 2340),
      tool(12, "Bash", false),
      request(14, 0.00726, 2340, "tdd"),
    ]);
    // The Skill tool's own result loads the skill: it is no tool call of it.
    expect(figures.parts.map((part) => [part.skillName, part.costUsd, part.toolFailures])).toEqual([
      ["tdd", 0.00726, 1],
      ["", 0.00726, 0],
    ]);
  });

  it("gives a nested skill what follows it, and an API request to the skill it names", () => {
    const figures = attributePrompt([
      activation(1, "a"),
      tool(2, "Read", false),
      activation(3, "b"),
      tool(4, "Read", false),
      tool(5, "Grep", true),
      request(6, 0.5, 10, "a"),
    ]);
    expect(figures.parts.map((part) => [part.skillName, part.activations, part.toolCalls, part.toolFailures, part.costUsd])).toEqual([
      ["a", 1, 1, 1, 0.5],
      ["b", 1, 2, 1, 0],
    ]);
  });

  it("counts a prompt with no skill as not loaded, and orders by time when an event has no sequence", () => {
    const figures = attributePrompt([tool(null, "Bash", true, null), event(null, "prompt", {}, -500)]);
    expect([figures.loaded, figures.promptMs, figures.at]).toEqual([false, 500, new Date(T0 - 500)]);
    expect(figures.parts.map((part) => [part.skillName, part.toolCalls])).toEqual([["", 1]]);
  });
});
