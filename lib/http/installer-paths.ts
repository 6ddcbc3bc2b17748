const WELL_KNOWN = "/.well-known/skills";
const LINK = /^\/i\/([^/]+)(\/.*)?$/;

/**
 * The API route that answers where installers look for a team's skills: `/.well-known/skills/…`
 * (with a key) and the same under an install link, `/i/<token>/.well-known/skills/…` (docs/teams-and-keys.md#install-links); null
 * for any other path. Every path under `/i/<token>` goes to an install-link route, so an installer
 * with a revoked link reads the 401 that says so, and one with a mistyped path the 404 that names
 * what exists; the bare `…/.well-known/skills` (with or without its slash) is the index. The proxy
 * rewrites these rather than next.config's `rewrites`: Next compiles every configured rewrite's
 * pattern again on each request to a route with a dynamic segment (skill_view among them), and
 * two rewrites cost each such request more than this whole function.
 */
export function installerRoute(pathname: string): string | null {
  const keyed = underWellKnown(pathname);
  if (keyed !== null) return `/api/skills-index/${keyed}`;
  const link = LINK.exec(pathname);
  if (!link) return null;
  const [, token, rest = ""] = link;
  const linked = underWellKnown(rest);
  return linked === null ? `/api/install-link/${token}` : `/api/install-link/${token}/${linked}`;
}

/** The path below `/.well-known/skills/`, `index.json` for the folder itself; null for a path outside it. */
function underWellKnown(path: string): string | null {
  if (path === WELL_KNOWN || path === `${WELL_KNOWN}/`) return "index.json";
  return path.startsWith(`${WELL_KNOWN}/`) ? path.slice(WELL_KNOWN.length + 1) : null;
}
