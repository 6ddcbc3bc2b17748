// HTTP load against a running server: a warm-up that is thrown away, then the measured run.
import autocannon from "autocannon";
import { percentile } from "./percentile";

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
  /** A fixed body, or one made for each request (a batch no request sent before). */
  body?: string | (() => Buffer);
  /** The body's type; JSON unless said. */
  contentType?: string;
  seconds?: number;
  warmUpSeconds?: number;
  /** Turns of `paired` (5 unless said). */
  rounds?: number;
  /** Paths requested once each before the warm-up: a server that has run a while has served them. */
  touch?: string[];
}

/** Requests `touch` once each, then runs the route for the warm-up: what a server that has run a while has done. */
async function warmUp(baseUrl: string, options: LoadOptions): Promise<void> {
  const touch = [...(options.touch ?? [])];
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      for (let next = touch.pop(); next !== undefined; next = touch.pop()) {
        // Uncompressed, as autocannon asks: compressing 10,000 bodies only slows the touch down.
        const res = await fetch(`${baseUrl}${next}`, { headers: { ...options.headers, "accept-encoding": "identity" } });
        if (!res.ok) throw new Error(`${next}: ${res.status}`);
        await res.arrayBuffer();
      }
    }),
  );
  await run(baseUrl, options, options.warmUpSeconds ?? 2);
}

/**
 * The `p`th percentile of `sorted`, to a tenth of a millisecond. autocannon's own percentiles are
 * whole milliseconds: with medians of a few, a tail of twice the median is lost in the rounding.
 */
const inTenths = (sorted: readonly number[], p: number) => Math.round(percentile(sorted, p) * 10) / 10;

async function run(baseUrl: string, options: LoadOptions, seconds: number): Promise<Load> {
  const { path, body } = options;
  const latencies: number[] = [];
  let finished: (result: autocannon.Result) => void = () => {};
  let failed: (error: unknown) => void = () => {};
  const done = new Promise<autocannon.Result>((resolve, reject) => ((finished = resolve), (failed = reject)));
  const instance = autocannon(
    {
      url: baseUrl,
      connections: options.connections ?? 32,
      duration: seconds,
      headers: { ...options.headers, ...(body && { "content-type": options.contentType ?? "application/json" }) },
      requests: [
        {
          method: options.method ?? "GET",
          body: typeof body === "string" ? body : undefined,
          setupRequest: (request) => ({
            ...request,
            path: typeof path === "string" ? path : path(),
            ...(typeof body === "function" && { body: body() }),
          }),
        },
      ],
    },
    (error, result) => (error ? failed(error) : finished(result)),
  );
  // Each answer's time as autocannon measured it (hrtime, in fractional milliseconds), 2xx only as its own.
  instance.on("response", (_client: unknown, status: number, _bytes: number, ms: number) => {
    if (status >= 200 && status < 300) latencies.push(ms);
  });
  const result = await done;
  if (result.requests.total === 0) throw new Error(`${typeof path === "string" ? path : path()}: no answer in ${seconds} s`);
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `${typeof path === "string" ? path : path()}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  latencies.sort((a, b) => a - b);
  return {
    rps: result.requests.average,
    p50: inTenths(latencies, 50),
    p99: inTenths(latencies, 99),
    bytes: result.throughput.total / Math.max(result.requests.total, 1),
  };
}

/**
 * One request of the route, answered: autocannon stops without waiting for what it has in flight,
 * and a server (PGlite above all, one query at a time) goes on answering it, so a turn that
 * started at once would wait behind the last turn's requests — and a slow route's leftovers can
 * leave the next turn with no answer at all.
 */
async function settled(baseUrl: string, options: LoadOptions): Promise<void> {
  const { path, body } = options;
  const res = await fetch(`${baseUrl}${typeof path === "string" ? path : path()}`, {
    method: options.method ?? "GET",
    headers: { ...options.headers, ...(body && { "content-type": options.contentType ?? "application/json" }) },
    body: typeof body === "function" ? new Uint8Array(body()) : body,
  });
  if (!res.ok) throw new Error(`${res.url}: ${res.status}`);
  await res.arrayBuffer();
}

/** One route: warmed up, then measured. */
export async function load(baseUrl: string, options: LoadOptions): Promise<Load> {
  await warmUp(baseUrl, options);
  return run(baseUrl, options, options.seconds ?? 6);
}

/**
 * Two routes measured in turns, `rounds` times, each after its warm-up: drift on a shared machine
 * (another process, a slow minute) hits both alike. Figures are the medians of the rounds; the
 * ratio is the median of each round's ratio of requests per second.
 */
export async function paired(
  baseUrl: string,
  route: LoadOptions,
  baseline: LoadOptions,
  rounds = route.rounds ?? 5,
): Promise<{ route: Load; baseline: Load; ratio: number }> {
  await warmUp(baseUrl, baseline);
  await warmUp(baseUrl, route);
  const turns: { route: Load; baseline: Load }[] = [];
  for (let i = 0; i < rounds; i++) {
    await settled(baseUrl, baseline);
    const b = await run(baseUrl, baseline, route.seconds ?? 3);
    await settled(baseUrl, route);
    const r = await run(baseUrl, route, route.seconds ?? 3);
    turns.push({ route: r, baseline: b });
  }
  return {
    route: medianLoad(turns.map((turn) => turn.route)),
    baseline: medianLoad(turns.map((turn) => turn.baseline)),
    ratio: med(turns.map((turn) => turn.route.rps / turn.baseline.rps)),
  };
}

/** One route alone, in `rounds` turns as `paired` measures each: the medians of the turns. */
export async function inRounds(baseUrl: string, route: LoadOptions, rounds = route.rounds ?? 5): Promise<Load> {
  await warmUp(baseUrl, route);
  const turns: Load[] = [];
  for (let i = 0; i < rounds; i++) {
    await settled(baseUrl, route);
    turns.push(await run(baseUrl, route, route.seconds ?? 3));
  }
  return medianLoad(turns);
}

const med = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] as number;

const medianLoad = (turns: readonly Load[]): Load => ({
  rps: med(turns.map((turn) => turn.rps)),
  p50: med(turns.map((turn) => turn.p50)),
  p99: med(turns.map((turn) => turn.p99)),
  bytes: med(turns.map((turn) => turn.bytes)),
});

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
