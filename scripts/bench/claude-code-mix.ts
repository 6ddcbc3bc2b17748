// What one prompt of Claude Code sends, event by event, for the bench's mixed row and the
// arithmetic in docs/deploy.md ("Telemetry at scale"). Attribute names as the real binary sends
// them (issue 40); every value deterministic in the prompt's number.

export interface ClaudeCodeEvent {
  /** `user_prompt`, `api_request`…: sent as the log body `claude_code.<name>` and as `event.name`. */
  name: string;
  attributes: Record<string, string | number>;
}

const TOOLS = ["Read", "Edit", "Bash", "Grep", "Glob", "Write"];
/** Model calls in a prompt: the first answers the prompt, each later one follows a tool's result. */
const TURNS = 8;
/** Tool calls in a prompt: one after each model call but the last two. */
const TOOL_CALLS = 6;

/**
 * The events of prompt `n` of a session, in order: the prompt; in every second prompt a skill
 * activated (one in three of those typed as /name), which the model calls after it then name
 * (`skill.name`); eight model calls with their tokens and cost; six tool calls, each a decision
 * and — unless the person rejected it (1 in 30) — a result, 1 in 12 of them failed with an error;
 * a model error in 1 prompt in 5; the answer. About 22.5 records a prompt.
 */
export function promptEvents(n: number, skillOf: (n: number) => string): ClaudeCodeEvent[] {
  const prompt = { "prompt.id": `prompt-${n}` };
  const skill = n % 2 === 0 ? skillOf(n) : null;
  const events: ClaudeCodeEvent[] = [{ name: "user_prompt", attributes: { ...prompt, prompt_length: 40 + (n % 200) } }];
  if (skill) {
    const trigger = n % 6 === 0 ? "user-slash" : "claude-proactive";
    events.push({
      name: "skill_activated",
      attributes: { ...prompt, "skill.name": skill, "skill.source": "projectSettings", invocation_trigger: trigger },
    });
  }
  for (let turn = 0; turn < TURNS; turn++) {
    events.push({ name: "api_request", attributes: { ...prompt, ...apiRequest(n, turn), ...(skill ? { "skill.name": skill } : {}) } });
    if (turn < TOOL_CALLS) events.push(...toolCall(n, turn, prompt));
  }
  if (n % 5 === 0) {
    events.push({
      name: "api_error",
      attributes: { ...prompt, model: "claude-sonnet-4-5", error: "Overloaded", status_code: 529, attempt: 1, duration_ms: 1_200 },
    });
  }
  events.push({ name: "assistant_response", attributes: { ...prompt, model: "claude-sonnet-4-5", response_length: 600 + (n % 900) } });
  return events;
}

function apiRequest(n: number, turn: number): Record<string, string | number> {
  const input = 2_000 + ((n * 7 + turn * 13) % 40) * 100;
  const output = 150 + ((n + turn) % 20) * 40;
  const cacheRead = 18_000 + turn * 1_500;
  return {
    model: "claude-sonnet-4-5",
    input_tokens: input,
    output_tokens: output,
    cache_read_tokens: cacheRead,
    cache_creation_tokens: turn === 0 ? 4_000 : 0,
    // Sonnet's prices per million tokens: $3 in, $15 out, $0.30 read from cache, $3.75 written to it.
    cost_usd: Number(((input * 3 + output * 15 + cacheRead * 0.3 + (turn === 0 ? 4_000 * 3.75 : 0)) / 1e6).toFixed(6)),
    duration_ms: 1_500 + ((n + turn) % 10) * 400,
  };
}

function toolCall(n: number, turn: number, prompt: { "prompt.id": string }): ClaudeCodeEvent[] {
  const call = n * TOOL_CALLS + turn;
  const tool = TOOLS[call % TOOLS.length] ?? "Read";
  const id = { ...prompt, tool_name: tool, tool_use_id: `toolu_${String(call).padStart(12, "0")}` };
  if (call % 30 === 29) return [{ name: "tool_decision", attributes: { ...id, decision: "reject", source: "user_reject" } }];
  const failed = call % 12 === 5;
  return [
    { name: "tool_decision", attributes: { ...id, decision: "accept", source: "config" } },
    {
      name: "tool_result",
      attributes: {
        ...id,
        success: failed ? "false" : "true",
        duration_ms: 40 + (call % 25) * 30,
        tool_result_size_bytes: 200 + (call % 50) * 120,
        tool_parameters: JSON.stringify(
          tool === "Bash" ? { command: "npm test", description: "run the tests" } : { file_path: `src/module-${call % 40}.ts` },
        ),
        ...(failed ? { error: tool === "Bash" ? "Exit code 1: 3 tests failed" : "File has been modified since read" } : {}),
      },
    },
  ];
}
