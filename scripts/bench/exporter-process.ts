// A process of Claude Code exporters for the bench's mixed row (scripts/bench/exporters.ts starts
// it): each exporter is the OpenTelemetry JS SDK's own logger and protobuf exporter, batching as
// Claude Code does (every 5 s, up to 512 records), sending one session's prompts. Kept out of the
// bench's own process so that the load generator measuring the hot paths shares no event loop with
// them. Over IPC: "resume" starts the prompts, "pause" stops them and sends what is buffered,
// "stop" does that, answers with the counts and exits. It starts paused.
import { OTLPLogExporter } from "@opentelemetry/exporter-logs-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchLogRecordProcessor, LoggerProvider, type LogRecordExporter, type ReadableLogRecord } from "@opentelemetry/sdk-logs";
import { promptEvents } from "./claude-code-mix";

export interface ExporterCounts {
  /** Records the exporters were given. */
  emitted: number;
  /** Records in exports the server answered with success. */
  acknowledged: number;
  /** Records in exports that failed (the SDK drops them). */
  failed: number;
  /** Why exports failed: each error's message, with how many exports it failed. */
  failures: Record<string, number>;
  /** How long the exporters were sending: from each "resume" to the last answer after the next "pause". */
  ms: number;
}

const [url, key, exportersText, promptMsText, exportMsText] = process.argv.slice(2);
if (!url || !key || !process.send)
  throw new Error("usage: started by scripts/bench/exporters.ts over IPC with <url> <key> <exporters> <promptMs> <exportMs>");
const exporters = Number(exportersText ?? 50);
const promptMs = Number(promptMsText ?? 1000);
const exportMs = Number(exportMsText ?? 5000);

const counts: ExporterCounts = { emitted: 0, acknowledged: 0, failed: 0, failures: {}, ms: 0 };

/** The SDK's exporter, counting what the server acknowledged. */
class Counted implements LogRecordExporter {
  private readonly inner = new OTLPLogExporter({ url: `${url}/api/otlp/v1/logs`, headers: { Authorization: `Bearer ${key}` } });

  export(logs: ReadableLogRecord[], done: Parameters<LogRecordExporter["export"]>[1]): void {
    this.inner.export(logs, (result) => {
      // ExportResultCode.SUCCESS is 0.
      if (result.code === 0) counts.acknowledged += logs.length;
      else {
        counts.failed += logs.length;
        const reason = result.error?.message ?? "no error given";
        counts.failures[reason] = (counts.failures[reason] ?? 0) + 1;
      }
      done(result);
    });
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush();
  }
}

/** One developer's Claude Code: a session, its prompts every `promptMs`, exported every `exportMs`. */
function developer(i: number) {
  const provider = new LoggerProvider({
    resource: resourceFromAttributes({ "service.name": "claude-code", "service.version": "2.1.0" }),
    processors: [
      new BatchLogRecordProcessor({ exporter: new Counted(), maxExportBatchSize: 512, maxQueueSize: 8192, scheduledDelayMillis: exportMs }),
    ],
  });
  const logger = provider.getLogger("com.anthropic.claude_code.events", "2.1.0");
  const session = `bench-${process.pid}-${i}`;
  const person = { "user.email": `dev-${i}@example.com`, "user.account_uuid": `0c2b8f3e-0000-4000-8000-${String(i).padStart(12, "0")}` };
  let sequence = 0;
  let prompt = 0;
  const skillOf = (n: number) => `skill-${String((i * 37 + n) % 100).padStart(5, "0")}`;
  const emitPrompt = () => {
    for (const event of promptEvents(prompt++, skillOf)) {
      const at = new Date();
      logger.emit({
        body: `claude_code.${event.name}`,
        timestamp: at,
        attributes: {
          "event.name": event.name,
          "event.timestamp": at.toISOString(),
          "event.sequence": ++sequence,
          "session.id": session,
          ...person,
          "organization.id": "9f0c3a52-0000-4000-8000-000000000001",
          "terminal.type": "vscode",
          ...event.attributes,
        },
      });
      counts.emitted++;
    }
  };
  let timers: NodeJS.Timeout[] = [];
  return {
    // Started at different moments, so the 50 exports of each interval arrive spread over it.
    resume: () => {
      timers = [
        setTimeout(
          () => {
            emitPrompt();
            timers.push(setInterval(emitPrompt, promptMs));
          },
          (i * exportMs) / exporters,
        ),
      ];
    },
    pause: async () => {
      for (const timer of timers) clearTimeout(timer);
      timers = [];
      await provider.forceFlush();
    },
    close: () => provider.shutdown(),
  };
}

const running = Array.from({ length: exporters }, (_, i) => developer(i));
let resumedAt = 0;
const pause = async () => {
  if (resumedAt === 0) return;
  await Promise.all(running.map((one) => one.pause()));
  counts.ms += Date.now() - resumedAt;
  resumedAt = 0;
};
const answers: Record<string, () => Promise<object>> = {
  resume: async () => {
    if (resumedAt === 0) {
      resumedAt = Date.now();
      for (const one of running) one.resume();
    }
    return { resumed: true };
  },
  pause: async () => {
    await pause();
    return { paused: true };
  },
  stop: async () => {
    await pause();
    await Promise.all(running.map((one) => one.close()));
    return { counts };
  },
};
process.on("message", (message) => {
  const answer = answers[String(message)];
  if (!answer) return;
  void answer().then((reply) => process.send?.(reply, () => (message === "stop" ? process.exit(0) : undefined)));
});
process.send({ ready: true });
