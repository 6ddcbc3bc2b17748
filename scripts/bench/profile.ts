// `npm run bench:profile`: where a warm hot-path request spends its time (docs/hot-path.md). Starts
// the built server with its inspector open on a PostgreSQL database holding the bench's team of
// 10,000 skills, loads one route at a time as the bench does, profiles the measured seconds only
// (not the warm-up), and prints the places and functions that took the most; /api/live's is the
// framework's floor. Frames in the built server's chunks are read back through their source maps.
//
//   PROFILE_KIND          cpu (default): CPU per request, by place, by function, and our code with
//                         what it calls; heap: bytes allocated per request, by function
//   PROFILE_DATABASE_URL  a database seeded by an earlier run, kept (default: a scratch one, dropped)
//   PROFILE_ROUTES        which of live, listing, view to load (default: all three)
//   PROFILE_SECONDS       how long each route is loaded (default: 10)
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { AnyMap, originalPositionFor, type TraceMap } from "@jridgewell/trace-mapping";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import WebSocket from "ws";
import { asLongWork } from "../../db/budget";
import { openDatabase } from "../../db/client";
import { rowsOf, singleRow } from "../../db/rows";
import { scratchDatabase } from "../../tests/helpers/scratch-database";
import { freePort, startServer } from "../../tests/helpers/server";
import { buildIfNeeded } from "../build-if-needed.mjs";
import { load, type LoadOptions } from "./load";
import { LARGE_CATALOG, seed, TEAM } from "./seed";

const KEY = "sg_profile_key_0000000000000000000";
const SECONDS = Number(process.env.PROFILE_SECONDS ?? 10);
const KIND = process.env.PROFILE_KIND ?? "cpu";
if (KIND !== "cpu" && KIND !== "heap") throw new Error(`PROFILE_KIND: "${KIND}" is neither cpu nor heap`);
const headers = { authorization: `Bearer ${KEY}` };
const skill = () => `/api/v1/skills/skill-${String(Math.floor(Math.random() * LARGE_CATALOG)).padStart(5, "0")}`;
const ROUTES: Record<string, LoadOptions> = {
  live: { path: "/api/live" },
  listing: { path: "/api/v1/listing", headers },
  view: {
    path: skill,
    headers,
    touch: Array.from({ length: LARGE_CATALOG }, (_, i) => `/api/v1/skills/skill-${String(i).padStart(5, "0")}`),
  },
};

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
/** A node of V8's sampling heap profile: what its frame allocated, sampled. */
interface HeapNode {
  callFrame: CallFrame;
  selfSize: number;
  children: HeapNode[];
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code came from: the built server's chunks read back through their source maps. */
class Sources {
  private readonly maps = new Map<string, TraceMap | null>();

  /** The source file (our `lib/…`, a package's `node_modules/<name>`, Next, Node) and the function's name there. */
  of(frame: CallFrame): { place: string; name: string } {
    const { url, functionName, lineNumber, columnNumber } = frame;
    if (!url) return { place: functionName.startsWith("(") ? functionName : "(native)", name: functionName };
    if (url.startsWith("node:")) return { place: "node:*", name: `${functionName} ${url}` };
    const file = url.replace(/^file:\/\//, "");
    const map = this.mapOf(file);
    const original = map && originalPositionFor(map, { line: lineNumber + 1, column: columnNumber });
    const source = original?.source ? path.resolve(path.dirname(file), decodeURIComponent(original.source)) : file;
    const name = `${original?.name ?? functionName ?? "(anonymous)"} ${path.relative(process.cwd(), source)}:${original?.line ?? lineNumber + 1}`;
    return { place: placeOf(path.relative(process.cwd(), source)), name };
  }

  private mapOf(file: string): TraceMap | null {
    if (!this.maps.has(file)) {
      const mapFile = `${file}.map`;
      this.maps.set(file, existsSync(mapFile) ? new AnyMap(readFileSync(mapFile, "utf8")) : null);
    }
    return this.maps.get(file) ?? null;
  }
}

/** A package by its name, Next's own code, or our code by file. */
function placeOf(source: string): string {
  const modules = source.lastIndexOf("node_modules/");
  if (modules < 0) return source;
  const parts = source.slice(modules + "node_modules/".length).split("/");
  const [scope = "", name = ""] = parts;
  return scope.startsWith("@") ? `${scope}/${name}` : scope;
}

/** Our code: what the profile is for. */
const isOurs = (place: string) => /^(lib|app|db|components)\//.test(place) || place === "proxy.ts" || place === "instrumentation.ts";

/** `cpuMicros`: the server process's CPU time while the profile was taken, from /proc. */
function summarize(route: string, profile: Profile, requests: number, cpuMicros: number): void {
  const sources = new Sources();
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const nameOf = (id: number) => byId.get(id)?.callFrame.functionName;
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const frames = new Map(profile.nodes.map((node) => [node.id, sources.of(node.callFrame)]));
  // Samples, not the time between them: a gap is as often the process waiting for a core (the load
  // generator and the database share this machine) as work. Each sample is a share of the CPU the
  // server was measured to spend (`cpuMicros`).
  const counts = new Map<number, number>();
  for (const id of profile.samples) counts.set(id, (counts.get(id) ?? 0) + 1);
  const idleSamples = profile.samples.filter((id) => nameOf(id) === "(idle)").length;
  const perSample = cpuMicros / Math.max(profile.samples.length - idleSamples, 1);
  const self = new Map([...counts].map(([id, n]) => [id, n * perSample]));
  const add = (map: Map<string, number>, key: string, micros: number) => map.set(key, (map.get(key) ?? 0) + micros);
  let busy = 0;
  const places = new Map<string, number>();
  const functions = new Map<string, number>();
  // Inclusive: a sample counts once for each of our functions on its stack, and for our code in all.
  const ours = new Map<string, number>();
  let underOurs = 0;
  for (const [id, micros] of self) {
    const frame = frames.get(id);
    if (!frame || nameOf(id) === "(idle)") continue;
    busy += micros;
    add(places, frame.place, micros);
    add(functions, `${frame.name}`, micros);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const atFrame = frames.get(at);
      if (atFrame && isOurs(atFrame.place)) seen.add(atFrame.name);
    }
    for (const name of seen) add(ours, name, micros);
    if (seen.size > 0) underOurs += micros;
  }
  const perRequest = (micros: number) => `${(micros / requests).toFixed(1)} µs/req`;
  const top = (map: Map<string, number>, n: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, micros]) => `  ${((100 * micros) / busy).toFixed(1).padStart(5)}%  ${perRequest(micros).padStart(13)}  ${name}`)
      .join("\n");
  console.log(
    `== ${route}: ${requests} requests, ${perRequest(busy)} of CPU (${((100 * idleSamples) / profile.samples.length).toFixed(0)}% of samples idle)`,
  );
  console.log(`-- by place (self time)\n${top(places, 15)}`);
  console.log(`-- by function (self time)\n${top(functions, 25)}`);
  console.log(`-- our code, with what it calls: ${perRequest(underOurs)} in all\n${top(ours, 20)}`);
}

/** Bytes allocated per request by the functions that allocated most, their sources read back. */
function summarizeHeap(route: string, head: HeapNode, requests: number): void {
  const sources = new Sources();
  const byFunction = new Map<string, number>();
  const walk = (node: HeapNode) => {
    const { name } = sources.of(node.callFrame);
    byFunction.set(name, (byFunction.get(name) ?? 0) + node.selfSize);
    node.children.forEach(walk);
  };
  walk(head);
  const total = [...byFunction.values()].reduce((a, b) => a + b, 0);
  console.log(`== ${route}: ${(total / requests / 1024).toFixed(1)} KB allocated per request`);
  for (const [name, bytes] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
    console.log(`  ${(bytes / requests).toFixed(0).padStart(7)} B/req  ${name}`);
  }
}

/** A process's CPU time so far (user and system), from /proc: clock ticks of 10 ms. */
function cpuMicrosOf(pid: number): number {
  // The fields after the command's name: utime and stime are the 12th and 13th of them.
  const fields = (readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1] ?? "").split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** The server process's inspector, over the DevTools protocol: one command at a time, answered by id. */
async function inspector(port: number): Promise<{ send: (method: string, params?: object) => Promise<unknown>; close: () => void }> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
  const [target] = targets;
  if (!target) throw new Error(`the inspector on port ${port} lists no target`);
  const socket = new WebSocket(target.webSocketDebuggerUrl, { maxPayload: 1 << 30 });
  await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
  let next = 0;
  const waiting = new Map<number, (result: unknown) => void>();
  socket.on("message", (data) => {
    const message = JSON.parse(String(data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) waiting.get(message.id)?.(message.result);
  });
  return {
    send: (method, params = {}) =>
      new Promise((resolve) => {
        const id = ++next;
        waiting.set(id, resolve);
        socket.send(JSON.stringify({ id, method, params }));
      }),
    close: () => socket.close(),
  };
}

async function main(): Promise<void> {
  await buildIfNeeded();
  const kept = process.env.PROFILE_DATABASE_URL;
  const scratch = kept ? undefined : await scratchDatabase("skillgate_profile");
  const url = kept ?? scratch?.url ?? "";
  try {
    const database = await openDatabase({ url, statementTimeoutMs: 600_000 });
    const seeded = await database.db
      .execute(sql`select count(*)::int as n from skills s join teams t on t.id = s.team_id where t.slug = ${TEAM.large}`)
      .then((result) => singleRow(rowsOf<{ n: number }>(result)).n)
      // A new scratch database has no tables yet.
      .catch(() => 0);
    if (seeded < LARGE_CATALOG) await asLongWork(() => seed(database, console.log, { views: false, telemetry: false, largeCatalog: true }));
    await database.close();
    const dir = mkdtempSync(path.join(tmpdir(), "skillgate-profile-"));
    for (const route of (process.env.PROFILE_ROUTES ?? "live,listing,view").split(",")) {
      const options = ROUTES[route];
      if (!options) throw new Error(`PROFILE_ROUTES: no route "${route}"; the routes are ${Object.keys(ROUTES).join(", ")}`);
      const port = await freePort();
      const server = await startServer({
        DATABASE_URL: url,
        SKILLGATE_DEMO: "0",
        SKILLGATE_INIT_TEAM: TEAM.large,
        SKILLGATE_INIT_API_KEY: KEY,
        NODE_OPTIONS: `--inspect=127.0.0.1:${port}`,
      });
      const devtools = await inspector(port);
      try {
        const unprofiled = await load(server.url, { ...options, seconds: 3 });
        console.log(`\n${route} unprofiled: ${unprofiled.rps.toFixed(0)} req/s, p50 ${unprofiled.p50} ms, p99 ${unprofiled.p99} ms`);
        const measured = { ...options, touch: [], warmUpSeconds: 0.1, seconds: SECONDS };
        if (KIND === "heap") {
          // Every allocation sampled, the ones a collection took since included: what a request costs the GC.
          await devtools.send("HeapProfiler.enable");
          await devtools.send("HeapProfiler.startSampling", {
            samplingInterval: 4096,
            includeObjectsCollectedByMajorGC: true,
            includeObjectsCollectedByMinorGC: true,
          });
          const figures = await load(server.url, measured);
          const { profile } = (await devtools.send("HeapProfiler.stopSampling")) as { profile: { head: HeapNode } };
          console.log(`${route} profiled: ${figures.rps.toFixed(0)} req/s, p50 ${figures.p50} ms, p99 ${figures.p99} ms`);
          summarizeHeap(route, profile.head, Math.round(figures.rps * SECONDS));
          continue;
        }
        await devtools.send("Profiler.enable");
        await devtools.send("Profiler.setSamplingInterval", { interval: 200 });
        await devtools.send("Profiler.start");
        const pid = server.process.pid ?? 0;
        const cpuBefore = cpuMicrosOf(pid);
        const figures = await load(server.url, measured);
        const { profile } = (await devtools.send("Profiler.stop")) as { profile: Profile };
        const cpu = cpuMicrosOf(pid) - cpuBefore;
        console.log(`${route} profiled: ${figures.rps.toFixed(0)} req/s, p50 ${figures.p50} ms, p99 ${figures.p99} ms`);
        const file = path.join(dir, `${route}.cpuprofile`);
        writeFileSync(file, JSON.stringify(profile));
        summarize(route, profile, Math.round(figures.rps * SECONDS), cpu);
        console.log(`  (${file}: open it in Chrome's DevTools for the call tree)`);
      } finally {
        devtools.close();
        await server.stop();
      }
    }
  } finally {
    await scratch?.drop();
  }
}

await main();
