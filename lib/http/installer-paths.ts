const INDEX = "/.well-known/skills/";
const LINKED_INDEX = /^\/i\/([^/]+)\/\.well-known\/skills\/(.*)$/;

/**
 * The API route that answers where installers look for a team's skills: `/.well-known/skills/…`
 * (with a key) and the same under an install link, `/i/<token>/.well-known/skills/…` (§12); null
 * for any other path. The proxy rewrites these rather than next.config's `rewrites`: Next compiles
 * every configured rewrite's pattern again on each request to a route with a dynamic segment
 * (skill_view among them), and two rewrites cost each such request more than this whole function.
 */
export function installerRoute(pathname: string): string | null {
  if (pathname.startsWith(INDEX)) return `/api/skills-index/${pathname.slice(INDEX.length)}`;
  const linked = LINKED_INDEX.exec(pathname);
  return linked ? `/api/install-link/${linked[1]}/${linked[2]}` : null;
}
