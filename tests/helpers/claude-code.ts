import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * The real Claude Code CLI from the npm registry (`@anthropic-ai/claude-code`, a devDependency),
 * run headless in a project of its own, configured by the README's "Connect Claude Code" block and
 * pointed at a fake model (tests/helpers/fake-anthropic.ts).
 */

const require = createRequire(import.meta.url);

/**
 * The native binary for this machine. The wrapper package's `bin/claude.exe` is a placeholder
 * until its postinstall copies the binary over it, and npm 11 does not run install scripts it
 * was not told to allow; the platform package (an optional dependency) always holds the binary.
 * Throws, saying why and what to do, when there is none or it does not run here.
 */
export function claudeCodeBinary(): { path: string; version: string } {
  const wrapper = require.resolve("@anthropic-ai/claude-code/package.json");
  const { version, optionalDependencies } = JSON.parse(readFileSync(wrapper, "utf8")) as {
    version: string;
    optionalDependencies: Record<string, string>;
  };
  const platform = `@anthropic-ai/claude-code-${platformKey()}`;
  if (!(platform in optionalDependencies))
    throw new Error(
      `Claude Code ${version} ships no binary for ${platformKey()}: this test needs one of ${Object.keys(optionalDependencies)}`,
    );
  let folder: string;
  try {
    folder = path.dirname(createRequire(wrapper).resolve(`${platform}/package.json`));
  } catch {
    throw new Error(`${platform} is not installed: run \`npm ci\` without --omit=optional (it holds Claude Code's binary)`);
  }
  const binary = path.join(folder, process.platform === "win32" ? "claude.exe" : "claude");
  const ran = spawnSync(binary, ["--version"], { encoding: "utf8", timeout: 30_000, env: only({ PATH: process.env.PATH ?? "" }) });
  if (ran.stdout?.trim() !== `${version} (Claude Code)`)
    throw new Error(
      `Claude Code's binary ${binary} does not run on this machine: ${ran.error?.message ?? `exit ${ran.status}: ${ran.stderr}${ran.stdout}`}`,
    );
  return { path: binary, version };
}

/** Exactly these variables and none of this process's (Next's types want NODE_ENV in every environment). */
function only(variables: Record<string, string>): NodeJS.ProcessEnv {
  return variables as NodeJS.ProcessEnv;
}

function platformKey(): string {
  const arch = process.arch;
  if (process.platform !== "linux") return `${process.platform}-${arch}`;
  // Node's report names the glibc it runs on; a musl system has none.
  const header = (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header;
  return `linux-${arch}${header?.glibcVersionRuntime ? "" : "-musl"}`;
}

/** The `env` block of the README's "Connect Claude Code", as a lead copies it, with this server's address and key. */
export function readmeSettingsEnv(endpoint: string, key: string): Record<string, string> {
  const readme = readFileSync(path.resolve("README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Connect Claude Code"));
  const block = /```json\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('README.md has no ```json block under "## Connect Claude Code"');
  const { env } = JSON.parse(block) as { env: Record<string, string> };
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT || !env.OTEL_EXPORTER_OTLP_HEADERS)
    throw new Error("the README's block no longer sets OTEL_EXPORTER_OTLP_ENDPOINT and OTEL_EXPORTER_OTLP_HEADERS");
  return { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_HEADERS: `Authorization=Bearer ${key}` };
}

export interface ClaudeCodeRun {
  binary: string;
  /** ANTHROPIC_BASE_URL: the fake model. */
  modelUrl: string;
  /** The `env` block that goes in `~/.claude/settings.json`. */
  settingsEnv: Record<string, string>;
  /** Skills in the project's `.claude/skills/<name>/SKILL.md`. */
  skills: { name: string; description: string; body: string }[];
  prompt: string;
  /** Claude Code's own session id, so the test knows the events' keys in advance. */
  sessionId: string;
  /** Tools it may run without asking: headless, nobody is there to answer. */
  allowedTools: string[];
  /** Variables a developer could set besides the settings (a capture's retry count, say). */
  extraEnv?: Record<string, string>;
  timeoutMs?: number;
}

export interface ClaudeCodeResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** `--output-format json`'s summary, when it printed one. */
  result: { is_error: boolean; result: string; session_id: string; num_turns: number; total_cost_usd: number } | null;
  project: string;
}

/**
 * One headless prompt (`-p`) in a fresh project with a home of its own, so nothing of the machine's
 * own Claude Code (a login, settings, another session's state) takes part. The environment holds
 * only what points the CLI at the fake model; everything telemetry needs comes from the settings.
 */
export async function runClaudeCode(run: ClaudeCodeRun): Promise<ClaudeCodeResult> {
  const home = mkdtempSync(path.join(tmpdir(), "skillgate-claude-home-"));
  const project = mkdtempSync(path.join(tmpdir(), "skillgate-claude-project-"));
  mkdirSync(path.join(home, ".claude"));
  writeFileSync(path.join(home, ".claude/settings.json"), JSON.stringify({ env: run.settingsEnv }, null, 2));
  for (const skill of run.skills) {
    mkdirSync(path.join(project, ".claude/skills", skill.name), { recursive: true });
    writeFileSync(
      path.join(project, ".claude/skills", skill.name, "SKILL.md"),
      `---\nname: ${skill.name}\ndescription: ${skill.description}\n---\n${skill.body}`,
    );
  }
  const args = ["-p", run.prompt, "--output-format", "json", "--session-id", run.sessionId, "--allowedTools", run.allowedTools.join(",")];
  const env = only({
    PATH: process.env.PATH ?? "",
    HOME: home,
    ANTHROPIC_BASE_URL: run.modelUrl,
    ANTHROPIC_API_KEY: "sk-ant-fake",
    ...run.extraEnv,
  });
  const child = spawn(run.binary, args, { cwd: project, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill("SIGKILL"), run.timeoutMs ?? 20_000);
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  clearTimeout(timer);
  let result: ClaudeCodeResult["result"] = null;
  try {
    result = JSON.parse(stdout) as ClaudeCodeResult["result"];
  } catch {
    // Not the summary (an error printed as text): the test shows stdout as it is.
  }
  return { code, stdout, stderr, result, project };
}
