/** Where to go after sign-in: only a path on this site, never another origin. */
export function safeCallbackPath(raw: string): string {
  try {
    const url = new URL(raw, "http://skillgate.local");
    const path = `${url.pathname}${url.search}`;
    return path.startsWith("/") && !path.startsWith("//") ? path : "/";
  } catch {
    return "/";
  }
}
