import { createServer, type Server, type ServerResponse } from "node:http";

/**
 * A stand-in for an OpenAI-compatible chat server on loopback, for the browser tests: the built
 * app runs in its own process, where the AI SDK's mock model cannot reach. It answers every chat
 * completion with `answer(request)` and counts what it was asked.
 *
 * A test that needs to see work in flight holds the stub rather than making it slow: while held,
 * requests wait unanswered until it is released, however long the test takes to look. A test in
 * another process (the browser tests' workers, when the stub is the shared server's judge) does the
 * same through the stub's control paths, with stubControl().
 *
 * A test that needs one answer its `answer` function would not give (a malformed one) sets it with
 * answerOnce(): the next request whose prompt contains the text gets it, and the others are answered as before.
 */
export interface OpenAiStub {
  baseUrl: string;
  requests: number;
  /** From now on, requests wait unanswered until release(). */
  hold(): void;
  /** Answers the requests held back, and answers at once again. */
  release(): void;
  /** The next request whose prompt contains `promptContains` gets `answer` instead of what `answer(request)` says. */
  answerOnce(promptContains: string, answer: StubAnswer): void;
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

/** Where the stub's control paths live, beside the chat API's `/v1`. */
const CONTROL = "/control";

export async function startOpenAiStub(answer: (request: StubRequest) => StubAnswer | Promise<StubAnswer>): Promise<OpenAiStub> {
  let held: Promise<void> | null = null;
  let letGo = () => {};
  const once: { promptContains: string; answer: StubAnswer }[] = [];
  const stub = {
    requests: 0,
    hold: () => {
      if (held) return;
      held = new Promise<void>((resolve) => (letGo = resolve));
    },
    release: () => {
      held = null;
      letGo();
    },
    answerOnce: (promptContains: string, answer: StubAnswer) => void once.push({ promptContains, answer }),
  } as OpenAiStub;
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      if (req.url?.startsWith(CONTROL)) {
        if (req.url === `${CONTROL}/hold`) stub.hold();
        else if (req.url === `${CONTROL}/release`) stub.release();
        else if (req.url === `${CONTROL}/answer-once`) {
          const { promptContains, answer } = JSON.parse(body) as { promptContains: string; answer: StubAnswer };
          stub.answerOnce(promptContains, answer);
        }
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ requests: stub.requests, held: held !== null }));
        return;
      }
      stub.requests++;
      const id = stub.requests;
      // A client that went away while its answer was held (a killed instance) is past answering.
      res.on("error", () => {});
      void respond(id, body, res).catch((error: unknown) => {
        // The client may be gone (a killed instance): there is nobody left to answer.
        if (!res.headersSent && !res.destroyed) res.writeHead(500).end(String(error));
      });
    });
  });
  const respond = async (id: number, body: string, res: ServerResponse) => {
    const request = JSON.parse(body) as {
      model: string;
      messages: { role: string; content: string | null }[];
      tools?: { function: { name: string } }[];
    };
    const prompt = request.messages.map((m) => m.content ?? "").join("\n");
    const chosen = once.findIndex((entry) => prompt.includes(entry.promptContains));
    const given =
      chosen >= 0
        ? once.splice(chosen, 1)[0]!.answer
        : await answer({
            prompt,
            tools: (request.tools ?? []).map((t) => t.function.name),
            afterTool: request.messages[request.messages.length - 1]?.role === "tool",
          });
    if (held) await held;
    if (res.destroyed) return;
    const message =
      typeof given === "string"
        ? { role: "assistant", content: given }
        : {
            role: "assistant",
            content: null,
            tool_calls: [{ id: `call_${id}`, type: "function", function: { name: given.tool, arguments: JSON.stringify(given.args) } }],
          };
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        id: `chatcmpl-${id}`,
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model: request.model,
        choices: [{ index: 0, message, finish_reason: typeof given === "string" ? "stop" : "tool_calls" }],
        usage: { prompt_tokens: prompt.length, completion_tokens: 20, total_tokens: prompt.length + 20 },
      }),
    );
  };
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  stub.baseUrl = `http://127.0.0.1:${port}/v1`;
  stub.close = () => {
    stub.release();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  return stub;
}

/** Holds, releases and sets one answer of a stub running in another process, by its `baseUrl`. */
export function stubControl(baseUrl: string): {
  hold(): Promise<void>;
  release(): Promise<void>;
  answerOnce(promptContains: string, answer: StubAnswer): Promise<void>;
} {
  const control = async (action: "hold" | "release" | "answer-once", body?: unknown) => {
    const res = await fetch(`${new URL(baseUrl).origin}${CONTROL}/${action}`, { method: "POST", body: JSON.stringify(body ?? {}) });
    if (!res.ok) throw new Error(`the model stub refused to ${action}: HTTP ${res.status}`);
  };
  return {
    hold: () => control("hold"),
    release: () => control("release"),
    answerOnce: (promptContains, answer) => control("answer-once", { promptContains, answer }),
  };
}
