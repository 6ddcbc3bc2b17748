/** The dashboard's sections (§10), in the order the navigation shows them: one list for every page that links them. */
export const DASHBOARD_SECTIONS = [
  { href: "", label: "Overview" },
  { href: "/listing", label: "Listing budget" },
  { href: "/activation", label: "Activation" },
  { href: "/ledger", label: "Ledger" },
  { href: "/history", label: "History" },
  { href: "/settings", label: "Settings" },
] as const;
