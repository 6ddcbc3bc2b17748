/** Builders for skill folders in sync requests. */
export function skillMd(name: string, description: string, body = `# ${name}\n\nSteps.\n`, extra = ""): string {
  return `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n${extra}---\n${body}`;
}

export function syncFile(path: string, content: string) {
  return { path, content };
}

type Call = (method: string, url: string, options?: { json?: unknown }) => Promise<Response>;

/**
 * An active learned skill at v1 … v<versions>: each version's body is `# v<N>` and its description
 * `Writes release notes, take <N>. Use when shipping.`, so a test can tell which one it was served.
 */
export async function learnedAtVersions(call: Call, name: string, versions: number): Promise<void> {
  const described = (version: number) => `Writes release notes, take ${version}. Use when shipping.`;
  const created = await call("POST", "/api/v1/skills", { json: { name, description: described(1), body: "# v1\n", status: "active" } });
  if (created.status !== 201) throw new Error(`creating ${name} answered ${created.status}`);
  for (let version = 2; version <= versions; version++) {
    const updated = await call("PUT", `/api/v1/skills/${name}`, {
      json: { description: described(version), body: `# v${version}\n`, expectedVersion: version - 1 },
    });
    if (updated.status !== 200) throw new Error(`v${version} of ${name} answered ${updated.status}`);
  }
}
