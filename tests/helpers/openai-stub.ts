import { createServer, type Server } from "node:http";

/**
 * A stand-in for an OpenAI-compatible chat server on loopback, for the browser tests: the built
 * app runs in its own process, where the AI SDK's mock model cannot reach. It answers every chat
 * completion with `answer(prompt)` after `delayMs`, and counts what it was asked.
 */
export interface OpenAiStub {
  baseUrl: string;
  requests: number;
  close(): Promise<void>;
}

/** A text answer, or a call of one of the request's tools. */
export type StubAnswer = string | { tool: string; args: Record<string, unknown> };

export interface StubRequest {
  prompt: string;
  /** Tool names the request offered. */
  tools: string[];
  /** Whether the last message is a tool's result (the model's turn after a call). */
  afterTool: boolean;
}

export async function startOpenAiStub(answer: (request: StubRequest) => StubAnswer, delayMs = 0): Promise<OpenAiStub> {
  const stub = { requests: 0 } as OpenAiStub;
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      stub.requests++;
      const request = JSON.parse(body) as {
        model: string;
        messages: { role: string; content: string | null }[];
        tools?: { function: { name: string } }[];
      };
      const prompt = request.messages.map((m) => m.content ?? "").join("\n");
      const given = answer({
        prompt,
        tools: (request.tools ?? []).map((t) => t.function.name),
        afterTool: request.messages[request.messages.length - 1]?.role === "tool",
      });
      const message =
        typeof given === "string"
          ? { role: "assistant", content: given }
          : {
              role: "assistant",
              content: null,
              tool_calls: [
                { id: `call_${stub.requests}`, type: "function", function: { name: given.tool, arguments: JSON.stringify(given.args) } },
              ],
            };
      setTimeout(() => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            id: `chatcmpl-${stub.requests}`,
            object: "chat.completion",
            created: Math.floor(Date.now() / 1000),
            model: request.model,
            choices: [{ index: 0, message, finish_reason: typeof given === "string" ? "stop" : "tool_calls" }],
            usage: { prompt_tokens: prompt.length, completion_tokens: 20, total_tokens: prompt.length + 20 },
          }),
        );
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  stub.baseUrl = `http://127.0.0.1:${port}/v1`;
  stub.close = () => new Promise((resolve) => server.close(() => resolve()));
  return stub;
}
