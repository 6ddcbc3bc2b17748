/** Builders for skill folders in sync requests. */
export function skillMd(name: string, description: string, body = `# ${name}\n\nSteps.\n`, extra = ""): string {
  return `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n${extra}---\n${body}`;
}

export function syncFile(path: string, content: string) {
  return { path, content };
}
