import type { FailingTool } from "@/db/schema";

/**
 * Which skill each thing an agent did belongs to (docs/telemetry.md, "Attribution"). Pure: one
 * prompt's events in, its figures per skill out.
 *
 * A skill stays loaded for the rest of its prompt once activated. An API request belongs to the
 * skill it names (`skill.name`, which Claude Code sets on every call made while a skill is loaded),
 * else to no skill: the call that chose the skill finishes, and is logged, after the activation,
 * but was made before it. Every other event belongs to the skill activated last before it in the
 * prompt, else to no skill (''). So each event counts for one skill only, and the figures of all
 * skills and of '' add up to the prompt's.
 */

/** One stored event of a prompt, as the settle step reads it back (lib/telemetry/settle.ts). */
export interface StoredEvent {
  kind: "activation" | "prompt" | "tool_result" | "api_request" | "tool_rejection";
  at: Date;
  sequence: number | null;
  /** The activated skill, or the skill an API request named. */
  skillName: string | null;
  toolName: string | null;
  success: boolean | null;
  errorText: string | null;
  costUsd: number | null;
  tokens: number | null;
  person: string | null;
}

/** What a prompt did while one skill was loaded (or, for '', while none was). */
export interface PromptPart {
  skillName: string;
  /** When the skill was first activated in the prompt (or first named): the version then live is its version. */
  from: Date;
  activations: number;
  toolCalls: number;
  toolFailures: number;
  rejections: number;
  costUsd: number;
  tokens: number;
  /** The tools called, in the order first called. */
  toolsCalled: string[];
  failing: FailingTool[];
}

export interface PromptFigures {
  /** Whether any skill was loaded in the prompt. */
  loaded: boolean;
  at: Date;
  /** From the prompt's first event to its last. */
  promptMs: number;
  person: string | null;
  parts: PromptPart[];
}

/** Claude Code's tool that loads a skill. */
const LOADING_TOOL = "Skill";

/** No skill loaded: what ran before the first activation, or in a prompt with none. */
export const NO_SKILL = "";

export function attributePrompt(events: readonly StoredEvent[]): PromptFigures {
  const ordered = inOrder(events);
  const parts = new Map<string, PromptPart>();
  const partOf = (skillName: string, at: Date) => {
    let part = parts.get(skillName);
    if (!part) parts.set(skillName, (part = emptyPart(skillName, at)));
    return part;
  };
  let loaded: string | null = null;
  for (const event of ordered) {
    if (event.kind === "prompt") continue;
    // The Skill tool's own result is the activation's other half (loading the skill), not work done with it.
    if (event.kind === "tool_result" && event.toolName === LOADING_TOOL) continue;
    if (event.kind === "activation") {
      loaded = event.skillName ?? NO_SKILL;
      partOf(loaded, event.at).activations++;
      continue;
    }
    const owner = event.kind === "api_request" ? (event.skillName ?? NO_SKILL) : (loaded ?? NO_SKILL);
    const part = partOf(owner, event.at);
    if (event.kind === "api_request") {
      part.costUsd += event.costUsd ?? 0;
      part.tokens += event.tokens ?? 0;
    } else if (event.kind === "tool_rejection") {
      part.rejections++;
    } else {
      part.toolCalls++;
      const tool = event.toolName ?? "unknown";
      if (!part.toolsCalled.includes(tool)) part.toolsCalled.push(tool);
      if (event.success === false) addFailure(part, tool, event.errorText);
    }
  }
  const times = ordered.map((event) => event.at.getTime());
  const first = Math.min(...times);
  return {
    loaded: [...parts.keys()].some((name) => name !== NO_SKILL),
    at: new Date(first),
    promptMs: Math.max(...times) - first,
    person: ordered.find((event) => event.person !== null)?.person ?? null,
    parts: [...parts.values()],
  };
}

/**
 * Claude Code numbers a session's events: when every event has its number, that is the order
 * (batches arrive out of order, and times tie within a millisecond). Otherwise, by time.
 */
function inOrder(events: readonly StoredEvent[]): StoredEvent[] {
  const numbered = events.every((event) => event.sequence !== null);
  return [...events].sort((a, b) =>
    numbered ? (a.sequence ?? 0) - (b.sequence ?? 0) : a.at.getTime() - b.at.getTime() || (a.sequence ?? 0) - (b.sequence ?? 0),
  );
}

function emptyPart(skillName: string, from: Date): PromptPart {
  return {
    skillName,
    from,
    activations: 0,
    toolCalls: 0,
    toolFailures: 0,
    rejections: 0,
    costUsd: 0,
    tokens: 0,
    toolsCalled: [],
    failing: [],
  };
}

/** A failure counted, and its tool listed with the first error it said. */
function addFailure(part: PromptPart, tool: string, error: string | null): void {
  part.toolFailures++;
  const known = part.failing.find((failing) => failing.tool === tool);
  if (known) {
    known.failures++;
    known.error ??= error;
  } else part.failing.push({ tool, failures: 1, error });
}
