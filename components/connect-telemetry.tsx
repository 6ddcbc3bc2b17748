import Link from "next/link";

/**
 * How a team points Claude Code's OpenTelemetry at this server (§9.1; the README's "Connect Claude
 * Code" says what each setting sends). The endpoint is this server's own address, so the block can
 * be pasted as it is; only the key is the team's to fill in.
 */
export function ConnectTelemetry({ slug, origin }: { slug: string; origin: string }) {
  const settings = {
    env: {
      CLAUDE_CODE_ENABLE_TELEMETRY: "1",
      OTEL_LOGS_EXPORTER: "otlp",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
      OTEL_EXPORTER_OTLP_ENDPOINT: `${origin}/api/otlp`,
      OTEL_EXPORTER_OTLP_HEADERS: "Authorization=Bearer <telemetry key>",
      OTEL_LOG_TOOL_DETAILS: "1",
    },
  };
  return (
    <div className="space-y-2 text-sm" data-testid="connect-telemetry">
      <p>
        Point Claude Code at Skillgate with this <code>env</code> block in <code>.claude/settings.json</code>, or in the managed settings of
        every developer&apos;s machine (the README&apos;s section &ldquo;Connect Claude Code&rdquo; says what each setting sends):
      </p>
      <pre className="overflow-x-auto rounded-md bg-slate-900 p-3 font-mono text-xs text-slate-100" tabIndex={0}>
        {JSON.stringify(settings, null, 2)}
      </pre>
      <p className="text-slate-600">
        The key is one with the access &ldquo;telemetry only&rdquo;: it sends telemetry and reads nothing. A lead makes it under{" "}
        <Link className="text-indigo-700 underline" href={`/t/${slug}/settings#api-keys`}>
          Settings → API keys
        </Link>
        . <code>OTEL_LOG_TOOL_DETAILS=1</code> sends the names of custom skills; without it they count as unnamed.
      </p>
    </div>
  );
}
