import { LoggerProvider, SimpleLogRecordProcessor, BatchLogRecordProcessor } from "@opentelemetry/sdk-logs";
import { OTLPLogExporter as ProtoLogExporter } from "@opentelemetry/exporter-logs-otlp-proto";
import { OTLPLogExporter as JsonLogExporter } from "@opentelemetry/exporter-logs-otlp-http";
import { OTLPTraceExporter as ProtoTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { OTLPTraceExporter as JsonTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { BasicTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources";

/**
 * Claude Code's telemetry as its documentation describes it ("Monitoring", Events), sent by the
 * OpenTelemetry JS SDK's own exporters: every event a log record whose body is
 * `claude_code.<event>`, with `event.name`, `event.timestamp` (ISO 8601), `event.sequence` (a
 * number per session) and the standard attributes (`session.id`, `prompt.id`, `user.email`,
 * `user.account_uuid`, `organization.id`, `terminal.type`), on a resource named `claude-code`,
 * with what `OTEL_RESOURCE_ATTRIBUTES` adds, as the SDK reads it from the environment.
 */

export type Protocol = "http/protobuf" | "http/json";

/**
 * Who Claude Code says the person is: signed in to claude.ai, their email and account; signed in
 * with an API key, only `user.id`, a 64-hex hash of the installation.
 */
export type Person = { email: string; accountUuid: string } | { userId: string };

export interface ClaudeCodeSession {
  sessionId: string;
  person: Person;
  sequence: number;
}

export interface SkillActivated {
  skill: string;
  trigger: "claude-proactive" | "user-slash" | "nested-skill";
  source?: string;
  promptId: string;
  at?: Date;
}

export interface UserPrompt {
  promptId: string;
  /** Sent only with OTEL_LOG_USER_PROMPTS=1; otherwise Claude Code sends its length alone. */
  prompt?: string;
  at?: Date;
}

/** `claude_code.tool_result`: Claude Code sends `success` as text, and `error` only when the tool failed. */
export interface ToolResult {
  promptId: string;
  tool: string;
  success: boolean;
  error?: string;
  durationMs?: number;
  at?: Date;
}

/** `claude_code.api_request`: tokens and cost of one model call, and the skill loaded while it was made. */
export interface ApiRequest {
  promptId: string;
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number;
  cacheCreationTokens?: number;
  skill?: string;
  durationMs?: number;
  at?: Date;
}

/** `claude_code.tool_decision`: `source` says who decided (config, user_temporary, user_permanent, user_reject, user_abort). */
export interface ToolDecision {
  promptId: string;
  tool: string;
  decision: "accept" | "reject";
  source: string;
  at?: Date;
}

export interface LogSender {
  skillActivated(session: ClaudeCodeSession, event: SkillActivated): void;
  userPrompt(session: ClaudeCodeSession, event: UserPrompt): void;
  toolResult(session: ClaudeCodeSession, event: ToolResult): void;
  apiRequest(session: ClaudeCodeSession, event: ApiRequest): void;
  toolDecision(session: ClaudeCodeSession, event: ToolDecision): void;
  /** Any other Claude Code event (api_request, tool_result…), which Skillgate ignores. */
  other(session: ClaudeCodeSession, name: string, attributes?: Record<string, string | number>): void;
  /** Sends what is buffered; resolves once the server answered. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export interface SenderOptions {
  /** `<base>/api/otlp`, as OTEL_EXPORTER_OTLP_ENDPOINT is set. */
  endpoint: string;
  key: string;
  protocol?: Protocol;
  gzip?: boolean;
  /** Batches of up to 512 records (the SDK's default), else each record as it comes. */
  batched?: boolean;
}

export function claudeCodeLogs({ endpoint, key, protocol = "http/protobuf", gzip = false, batched = true }: SenderOptions): LogSender {
  const config = {
    url: `${endpoint}/v1/logs`,
    headers: { Authorization: `Bearer ${key}` },
    compression: gzip ? ("gzip" as never) : ("none" as never),
  };
  const exporter = protocol === "http/protobuf" ? new ProtoLogExporter(config) : new JsonLogExporter(config);
  const processor = batched
    ? new BatchLogRecordProcessor({ exporter, maxExportBatchSize: 512, maxQueueSize: 4096, scheduledDelayMillis: 60_000 })
    : new SimpleLogRecordProcessor({ exporter });
  const provider = new LoggerProvider({
    resource: resourceFromAttributes({ "service.name": "claude-code", "service.version": "2.1.0" }).merge(
      detectResources({ detectors: [envDetector] }),
    ),
    processors: [processor],
  });
  const logger = provider.getLogger("com.anthropic.claude_code.events", "2.1.0");
  const emit = (session: ClaudeCodeSession, name: string, attributes: Record<string, string | number>, at = new Date()) => {
    session.sequence++;
    logger.emit({
      body: `claude_code.${name}`,
      timestamp: at,
      attributes: {
        "event.name": name,
        "event.timestamp": at.toISOString(),
        "event.sequence": session.sequence,
        "session.id": session.sessionId,
        ...("userId" in session.person
          ? { "user.id": session.person.userId }
          : { "user.email": session.person.email, "user.account_uuid": session.person.accountUuid }),
        "organization.id": "9f0c3a52-0000-4000-8000-000000000001",
        "terminal.type": "vscode",
        ...attributes,
      },
    });
  };
  return {
    skillActivated: (session, event) =>
      emit(
        session,
        "skill_activated",
        {
          "skill.name": event.skill,
          "skill.source": event.source ?? "projectSettings",
          invocation_trigger: event.trigger,
          "prompt.id": event.promptId,
        },
        event.at,
      ),
    userPrompt: (session, event) =>
      emit(
        session,
        "user_prompt",
        {
          "prompt.id": event.promptId,
          prompt_length: (event.prompt ?? "x".repeat(40)).length,
          ...(event.prompt ? { prompt: event.prompt } : {}),
        },
        event.at,
      ),
    toolResult: (session, event) =>
      emit(
        session,
        "tool_result",
        {
          "prompt.id": event.promptId,
          tool_name: event.tool,
          tool_use_id: `toolu_${session.sequence + 1}`,
          success: String(event.success),
          duration_ms: event.durationMs ?? 40,
          ...(event.error === undefined ? {} : { error: event.error }),
        },
        event.at,
      ),
    apiRequest: (session, event) =>
      emit(
        session,
        "api_request",
        {
          "prompt.id": event.promptId,
          model: "claude-sonnet-4-5",
          cost_usd: event.costUsd,
          duration_ms: event.durationMs ?? 1500,
          input_tokens: event.inputTokens,
          output_tokens: event.outputTokens,
          cache_read_tokens: event.cacheReadTokens ?? 0,
          cache_creation_tokens: event.cacheCreationTokens ?? 0,
          ...(event.skill === undefined ? {} : { "skill.name": event.skill }),
        },
        event.at,
      ),
    toolDecision: (session, event) =>
      emit(
        session,
        "tool_decision",
        { "prompt.id": event.promptId, tool_name: event.tool, decision: event.decision, source: event.source },
        event.at,
      ),
    other: (session, name, attributes = {}) => emit(session, name, attributes),
    flush: () => provider.forceFlush(),
    close: () => provider.shutdown(),
  };
}

/** Spans of an agent that follows the GenAI semantic conventions: `execute_tool` spans naming the skill. */
export function genAiSpans({ endpoint, key, protocol = "http/protobuf" }: SenderOptions) {
  const config = { url: `${endpoint}/v1/traces`, headers: { Authorization: `Bearer ${key}` } };
  const exporter = protocol === "http/protobuf" ? new ProtoTraceExporter(config) : new JsonTraceExporter(config);
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": "other-agent" }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer("other-agent");
  return {
    executeTool(conversationId: string, skill: string | null, person: string) {
      const span = tracer.startSpan(`execute_tool ${skill ?? "read_file"}`, {
        attributes: {
          "gen_ai.operation.name": "execute_tool",
          "gen_ai.conversation.id": conversationId,
          "gen_ai.tool.name": skill ? "load_skill" : "read_file",
          ...(skill ? { "gen_ai.skill.name": skill } : {}),
          "user.email": person,
        },
      });
      span.end();
    },
    flush: () => provider.forceFlush(),
    close: () => provider.shutdown(),
  };
}

/** What a usage entry says of production when no tool ran while the skill was loaded: nothing, and no flag. */
export const NO_PRODUCTION_ENTRY = {
  production: { prompts: 0, toolCalls: 0, toolFailures: 0, failureRate: null, rejections: 0, costUsd: 0, tokens: 0, medianPromptMs: null },
  loadedThenFailing: false,
  costly: false,
};
