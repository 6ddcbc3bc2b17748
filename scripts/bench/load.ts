// HTTP load against a running server: a warm-up that is thrown away, then the measured run.
import autocannon from "autocannon";

export interface Load {
  rps: number;
  p50: number;
  p99: number;
  /** Bytes of the body of one response (the last). */
  bytes: number;
}

export interface LoadOptions {
  /** A fixed path, or one made for each request (to vary the skill). */
  path: string | (() => string);
  headers?: Record<string, string>;
  connections?: number;
  method?: "GET" | "POST";
  body?: string;
  seconds?: number;
  warmUpSeconds?: number;
}

export async function load(baseUrl: string, options: LoadOptions): Promise<Load> {
  const run = async (seconds: number) => {
    const { path } = options;
    const result = await autocannon({
      url: baseUrl,
      connections: options.connections ?? 32,
      duration: seconds,
      headers: { ...options.headers, ...(options.body && { "content-type": "application/json" }) },
      requests: [
        {
          method: options.method ?? "GET",
          body: options.body,
          setupRequest: (request) => ({ ...request, path: typeof path === "string" ? path : path() }),
        },
      ],
    });
    if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
      throw new Error(
        `${typeof path === "string" ? path : path()}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
      );
    }
    return result;
  };
  await run(options.warmUpSeconds ?? 2);
  const result = await run(options.seconds ?? 6);
  const sample = await fetch(`${baseUrl}${typeof options.path === "string" ? options.path : options.path()}`, { headers: options.headers });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, bytes: (await sample.arrayBuffer()).byteLength };
}

/** What others see while a heavy write holds the database: latency of one route for as long as `work` runs. */
export async function loadDuring(
  baseUrl: string,
  options: { path: string; headers?: Record<string, string>; connections?: number },
  work: () => Promise<unknown>,
): Promise<{ p50: number; p99: number; max: number; unanswered: number; workMs: number }> {
  let finished: (result: autocannon.Result) => void = () => {};
  const done = new Promise<autocannon.Result>((resolve) => (finished = resolve));
  const instance = autocannon(
    { url: `${baseUrl}${options.path}`, connections: options.connections ?? 8, duration: 600, headers: options.headers },
    (error, result) => {
      if (error) throw error;
      finished(result);
    },
  );
  const start = Date.now();
  await work();
  const workMs = Date.now() - start;
  instance.stop();
  const result = await done;
  if (result.non2xx > 0) throw new Error(`${options.path} during the work: ${result.non2xx} non-2xx`);
  return { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max, unanswered: result.timeouts + result.errors, workMs };
}
