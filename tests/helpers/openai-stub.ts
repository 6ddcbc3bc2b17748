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

export async function startOpenAiStub(answer: (prompt: string) => string, delayMs = 0): Promise<OpenAiStub> {
  const stub = { requests: 0 } as OpenAiStub;
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      stub.requests++;
      const request = JSON.parse(body) as { model: string; messages: { role: string; content: string }[] };
      const prompt = request.messages.map((m) => m.content).join("\n");
      setTimeout(() => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            id: `chatcmpl-${stub.requests}`,
            object: "chat.completion",
            created: Math.floor(Date.now() / 1000),
            model: request.model,
            choices: [{ index: 0, message: { role: "assistant", content: answer(prompt) }, finish_reason: "stop" }],
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
