import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A stand-in for Anthropic's Messages API on loopback, for the real Claude Code CLI (there is no
 * network here). Its main conversation — the requests that offer the `Skill` tool — follows a
 * script: load the skill, then call a tool that fails, then answer in text. Every other request
 * the CLI makes on the side (a title, a topic, a quota probe, token counts) gets a short answer, so
 * the CLI never waits on it. It streams (server-sent events) or answers whole, as the request asks,
 * and keeps every request for the test to look at.
 */

export interface ScriptedTurn {
  /** The skill the model loads first, by the `Skill` tool. */
  skill: string;
  /** The tool the model calls once the skill is loaded, and its input: a call that fails. */
  failing: { tool: string; input: Record<string, unknown> };
  /** The model's last words, once the failing tool's result is back. */
  answer: string;
  /** The first main-conversation request gets this error instead (Claude Code retries it), if set. */
  errorFirst?: { status: number; type: string; message: string };
}

export interface RecordedRequest {
  method: string;
  /** The path without its query (`/v1/messages`, `/v1/messages/count_tokens`). */
  path: string;
  body: MessagesRequest | null;
  /** What the fake answered: a scripted step, or the side answer. */
  answered: "skill" | "failing-tool" | "answer" | "side" | "count-tokens" | "probe" | "error" | "not-found";
}

export interface FakeAnthropic {
  /** For ANTHROPIC_BASE_URL: the CLI adds `/v1/messages`. */
  baseUrl: string;
  requests: RecordedRequest[];
  /** The tokens every answer reports, so the CLI's cost figures are known in advance. */
  usage: Usage;
  close(): Promise<void>;
}

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

interface Tool {
  name: string;
  input_schema?: { properties?: Record<string, unknown>; required?: string[] };
}
type Block = { type: string; id?: string; name?: string; text?: string; tool_use_id?: string; input?: unknown };
interface MessagesRequest {
  model: string;
  stream?: boolean;
  tools?: Tool[];
  messages: { role: "user" | "assistant"; content: string | Block[] }[];
}

type Content = { type: "text"; text: string } | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };

const USAGE: Usage = { input_tokens: 1200, output_tokens: 40, cache_creation_input_tokens: 300, cache_read_input_tokens: 800 };

export async function startFakeAnthropic(turn: ScriptedTurn): Promise<FakeAnthropic> {
  const requests: RecordedRequest[] = [];
  let messageCount = 0;
  let erred = false;
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk: Buffer) => (raw += chunk.toString()));
    req.on("end", () => {
      const record: RecordedRequest = { method: req.method ?? "", path: pathOf(req), body: parsed(raw), answered: "not-found" };
      requests.push(record);
      // The CLI's reachability probe of the base URL.
      if (record.method === "HEAD") {
        record.answered = "probe";
        return void res.writeHead(200).end();
      }
      if (record.method !== "POST" || !record.body) return void res.writeHead(404).end();
      if (record.path === "/v1/messages/count_tokens") {
        record.answered = "count-tokens";
        return json(res, { input_tokens: USAGE.input_tokens });
      }
      if (record.path !== "/v1/messages") return void res.writeHead(404).end();
      if (turn.errorFirst && !erred && record.body.tools?.some((tool) => tool.name === "Skill")) {
        erred = true;
        record.answered = "error";
        const { status, type, message } = turn.errorFirst;
        return void res
          .writeHead(status, { "content-type": "application/json" })
          .end(JSON.stringify({ type: "error", error: { type, message } }));
      }
      const { step, content } = nextStep(record.body, turn);
      record.answered = step;
      const message = {
        id: `msg_fake_${++messageCount}`,
        type: "message",
        role: "assistant",
        model: record.body.model,
        content,
        stop_reason: content.some((block) => block.type === "tool_use") ? "tool_use" : "end_turn",
        stop_sequence: null,
        usage: USAGE,
      };
      if (record.body.stream) stream(res, message);
      else json(res, message);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    usage: USAGE,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Where the main conversation stands, read from the calls the model already made in it. */
function nextStep(body: MessagesRequest, turn: ScriptedTurn): { step: RecordedRequest["answered"]; content: Content[] } {
  const skillTool = body.tools?.find((tool) => tool.name === "Skill");
  if (!skillTool) return { step: "side", content: [{ type: "text", text: sideAnswer(body) }] };
  const called = body.messages.flatMap((message) =>
    message.role === "assistant" && Array.isArray(message.content) ? message.content.filter((block) => block.type === "tool_use") : [],
  );
  if (!called.some((block) => block.name === "Skill"))
    return { step: "skill", content: [toolUse("Skill", { [skillField(skillTool)]: turn.skill }, called.length)] };
  if (!called.some((block) => block.name === turn.failing.tool))
    return { step: "failing-tool", content: [toolUse(turn.failing.tool, turn.failing.input, called.length)] };
  return { step: "answer", content: [{ type: "text", text: turn.answer }] };
}

/** The `Skill` tool's own name for the skill to load, from its input schema (`skill` in Claude Code 2.1). */
function skillField(tool: Tool): string {
  const names = Object.keys(tool.input_schema?.properties ?? {});
  const field = tool.input_schema?.required?.[0] ?? names[0];
  if (!field) throw new Error(`the Skill tool has no input field: ${JSON.stringify(tool.input_schema)}`);
  return field;
}

function toolUse(name: string, input: Record<string, unknown>, index: number): Content {
  return { type: "tool_use", id: `toolu_fake_${String(index + 1).padStart(2, "0")}_${name.toLowerCase()}`, name, input };
}

/**
 * The CLI's side requests: a session title or a topic, asked of a small model for JSON or a few
 * words. A JSON-looking object fits the ones that parse JSON; the others take it as a title.
 */
function sideAnswer(body: MessagesRequest): string {
  const last = body.messages.at(-1);
  const text = typeof last?.content === "string" ? last.content : (last?.content.find((block) => block.type === "text")?.text ?? "");
  if (/json/i.test(text)) return '{"title": "Fake session", "isNewTopic": false}';
  return "Fake session";
}

function stream(res: ServerResponse, message: { content: Content[] } & Record<string, unknown>): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  const send = (type: string, data: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  const usage = message.usage as Usage;
  send("message_start", { message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } } });
  message.content.forEach((block, index) => {
    if (block.type === "text") {
      send("content_block_start", { index, content_block: { type: "text", text: "" } });
      send("content_block_delta", { index, delta: { type: "text_delta", text: block.text } });
    } else {
      send("content_block_start", { index, content_block: { type: "tool_use", id: block.id, name: block.name, input: {} } });
      send("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) } });
    }
    send("content_block_stop", { index });
  });
  send("message_delta", {
    delta: { stop_reason: message.stop_reason, stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  send("message_stop", {});
  res.end();
}

function json(res: ServerResponse, body: unknown): void {
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
}

function pathOf(req: IncomingMessage): string {
  return new URL(req.url ?? "/", "http://fake").pathname;
}

function parsed(raw: string): MessagesRequest | null {
  try {
    return JSON.parse(raw) as MessagesRequest;
  } catch {
    return null;
  }
}
