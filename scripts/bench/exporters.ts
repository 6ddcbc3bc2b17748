// Claude Code exporters sending to the server under test, from a process of their own
// (scripts/bench/exporter-process.ts), for as long as a measurement runs beside them.
import { fork } from "node:child_process";
import { setPriority } from "node:os";
import { fileURLToPath } from "node:url";
import type { ExporterCounts } from "./exporter-process";

/** The exporters' process, started paused. */
export interface RunningExporters {
  /** Starts (or starts again) the sessions' prompts. */
  resume(): Promise<void>;
  /** Stops the prompts and sends what is buffered; resolves once the server answered it. */
  pause(): Promise<void>;
  /** Pauses, ends the process, and says what was sent and acknowledged while resumed. */
  stop(): Promise<ExporterCounts>;
}

export interface ExporterOptions {
  /** `<server>` (the exporters post to `<server>/api/otlp/v1/logs`). */
  url: string;
  key: string;
  exporters: number;
  /** How often each exporter's session makes a prompt's events. */
  promptMs: number;
  /** How often each exporter sends what it holds (Claude Code's OTEL_LOGS_EXPORT_INTERVAL, 5 s by default). */
  exportMs: number;
}

export async function startExporters(options: ExporterOptions): Promise<RunningExporters> {
  const script = fileURLToPath(new URL("./exporter-process.ts", import.meta.url));
  const args = [options.url, options.key, String(options.exporters), String(options.promptMs), String(options.exportMs)];
  const child = fork(script, args, { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  // The exporters stand for developers' machines, not this one: they take what CPU the server under
  // test and the load generator leave, rather than the load generator's share.
  if (child.pid !== undefined) setPriority(child.pid, 19);
  const exited = new Promise<never>((_, reject) =>
    child.once("exit", (code) => reject(new Error(`the exporters' process ended (${code}) before it was told to stop`))),
  );
  const message = <T>(pick: (m: unknown) => T | undefined) =>
    Promise.race([
      new Promise<T>((resolve) => {
        const listen = (m: unknown) => {
          const picked = pick(m);
          if (picked === undefined) return;
          child.off("message", listen);
          resolve(picked);
        };
        child.on("message", listen);
      }),
      exited,
    ]);
  await message((m) => ((m as { ready?: boolean }).ready ? true : undefined));
  const ask = <T>(command: string, pick: (m: unknown) => T | undefined) => {
    const answer = message(pick);
    child.send(command);
    return answer;
  };
  return {
    resume: async () => void (await ask("resume", (m) => ((m as { resumed?: boolean }).resumed ? true : undefined))),
    pause: async () => void (await ask("pause", (m) => ((m as { paused?: boolean }).paused ? true : undefined))),
    stop: () => ask("stop", (m) => (m as { counts?: ExporterCounts }).counts),
  };
}
