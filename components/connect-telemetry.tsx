import Link from "next/link";

/**
 * Claude Code's `env` block that points its OpenTelemetry at this server (docs/telemetry.md; the README's
 * "Connect Claude Code" says what each setting sends). The endpoint is this server's own address,
 * so the block can be pasted as it is; the key is filled in where it is known (a member's own key,
 * just made) and a placeholder otherwise.
 */
export function claudeCodeSettings(origin: string, key = "<telemetry key>"): string {
  const settings = {
    env: {
      CLAUDE_CODE_ENABLE_TELEMETRY: "1",
      OTEL_LOGS_EXPORTER: "otlp",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
      OTEL_EXPORTER_OTLP_ENDPOINT: `${origin}/api/otlp`,
      OTEL_EXPORTER_OTLP_HEADERS: `Authorization=Bearer ${key}`,
      OTEL_LOG_TOOL_DETAILS: "1",
    },
  };
  return JSON.stringify(settings, null, 2);
}

/** The block as a page shows it: scrollable, and reachable from the keyboard. */
export function SettingsBlock({ children, testId }: { children: string; testId?: string }) {
  return (
    <pre className="overflow-x-auto rounded-md bg-slate-900 p-3 font-mono text-xs text-slate-100" tabIndex={0} data-testid={testId}>
      {children}
    </pre>
  );
}

/** How a team points Claude Code at this server, with a placeholder for the key. */
export function ConnectTelemetry({ slug, origin }: { slug: string; origin: string }) {
  return (
    <div className="space-y-2 text-sm" data-testid="connect-telemetry">
      <p>
        Point Claude Code at Skillgate with this <code>env</code> block in <code>.claude/settings.json</code>, or in the managed settings of
        every developer&apos;s machine (the README&apos;s section &ldquo;Connect Claude Code&rdquo; says what each setting sends):
      </p>
      <SettingsBlock>{claudeCodeSettings(origin)}</SettingsBlock>
      <p className="text-slate-600">
        Each member makes their own key under{" "}
        <Link className="text-indigo-700 underline" href={`/t/${slug}/settings#my-claude-code-key`}>
          Settings → My Claude Code key
        </Link>
        : what it sends counts as theirs. A key a lead makes under Settings → API keys with the access &ldquo;telemetry only&rdquo; serves
        everyone, but Claude Code signed in with an API key then names people only by a hash, shown as &ldquo;unknown person #n&rdquo;.{" "}
        <code>OTEL_LOG_TOOL_DETAILS=1</code> sends the names of custom skills; without it they count as unnamed.
      </p>
    </div>
  );
}
