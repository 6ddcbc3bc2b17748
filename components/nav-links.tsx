"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { DASHBOARD_SECTIONS } from "@/lib/sections";

/** What waits in a section, by its path: amendments awaiting a lead's approval in the history. */
export type SectionCounts = Partial<Record<(typeof DASHBOARD_SECTIONS)[number]["href"], number>>;

function useSections(team: string, counts: SectionCounts) {
  const pathname = usePathname();
  return DASHBOARD_SECTIONS.map((section) => {
    const href = `/t/${team}${section.href}`;
    return {
      ...section,
      href,
      count: counts[section.href] ?? 0,
      active: section.href === "" ? pathname === href : pathname.startsWith(href),
    };
  });
}

type Section = ReturnType<typeof useSections>[number];

/** One section's link; the current one is marked for the eye and for screen readers. */
function SectionLink({ section, padding, idle }: { section: Section; padding: string; idle: string }) {
  return (
    <Link
      href={section.href}
      aria-current={section.active ? "page" : undefined}
      className={`rounded-md text-sm font-medium ${padding} ${section.active ? "bg-white text-slate-900" : idle}`}
    >
      {section.label}
      {section.count > 0 && (
        <span
          className="ml-1.5 rounded-full bg-amber-400 px-1.5 py-0.5 text-xs font-semibold text-slate-950"
          data-testid="nav-count"
          aria-label={`${section.count} awaiting approval`}
        >
          {section.count}
        </span>
      )}
    </Link>
  );
}

/** The dashboard's sections: links in a row on a wide screen, a menu that opens on a phone. */
export function NavLinks({ team, counts = {} }: { team: string; counts?: SectionCounts }) {
  const sections = useSections(team, counts);
  const current = sections.find((section) => section.active)?.label ?? "Sections";
  const waiting = sections.reduce((sum, section) => sum + section.count, 0);
  return (
    <>
      <nav className="hidden gap-1 lg:flex" aria-label="Sections">
        {sections.map((section) => (
          <SectionLink
            key={section.href}
            section={section}
            padding="px-3 py-1.5"
            idle="text-slate-300 hover:bg-slate-700 hover:text-white"
          />
        ))}
      </nav>
      <details className="relative lg:hidden" data-testid="nav-menu">
        <summary className="cursor-pointer list-none rounded-md border border-slate-600 px-3 py-1 text-sm font-medium text-white">
          {current} ▾
          {waiting > 0 && (
            <span
              className="ml-1.5 rounded-full bg-amber-400 px-1.5 py-0.5 text-xs font-semibold text-slate-950"
              aria-label={`${waiting} awaiting approval`}
            >
              {waiting}
            </span>
          )}
        </summary>
        <nav
          className="absolute left-0 z-10 mt-2 flex w-56 flex-col gap-1 rounded-md bg-slate-800 p-2 shadow-lg"
          aria-label="Sections menu"
        >
          {sections.map((section) => (
            <SectionLink key={section.href} section={section} padding="px-3 py-2" idle="text-slate-200 hover:bg-slate-700" />
          ))}
        </nav>
      </details>
    </>
  );
}
