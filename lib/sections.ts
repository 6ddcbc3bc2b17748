/** The dashboard's sections (docs/dashboard.md#pages), in the order the navigation shows them: one list for every page that links them. */
export const DASHBOARD_SECTIONS = [
  { href: "", label: "Overview" },
  { href: "/listing", label: "Listing budget" },
  { href: "/activation", label: "Activation" },
  { href: "/ledger", label: "Ledger" },
  { href: "/history", label: "History" },
  { href: "/settings", label: "Settings" },
] as const;

/**
 * Where the team switcher goes from `pathname` in team `from` to team `to`: the same section when
 * the path is a section's own page (`/t/a/ledger` → `/t/b/ledger`), else the other team's overview,
 * for a skill, plan, run or evaluation is one team's own and the other has nothing at that address.
 */
export function switchTeamHref(pathname: string, from: string, to: string): string {
  const rest = pathname.slice(`/t/${from}`.length);
  const section = pathname.startsWith(`/t/${from}`) && DASHBOARD_SECTIONS.some((s) => s.href === rest);
  return `/t/${to}${section ? rest : ""}`;
}
