"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useId, useRef, useState } from "react";
import { DASHBOARD_SECTIONS } from "@/lib/sections";
import { LinkPending } from "@/components/ui/link-pending";
import { useHydrated } from "@/components/ui/use-hydrated";

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

/** The count of what waits, beside a section's name. */
function WaitingBadge({ count, testId }: { count: number; testId?: string }) {
  return (
    <span
      className="ml-1.5 rounded-full bg-amber-400 px-1.5 py-0.5 text-xs font-semibold text-slate-950"
      data-testid={testId}
      aria-label={`${count} awaiting approval`}
    >
      {count}
    </span>
  );
}

/** One section's link; the current one is marked for the eye and for screen readers. */
function SectionLink({
  section,
  padding,
  idle,
  onNavigate,
}: {
  section: Section;
  padding: string;
  idle: string;
  /** Also on a click of the page one is on, where the path does not change. */
  onNavigate?: () => void;
}) {
  return (
    <Link
      href={section.href}
      onClick={onNavigate}
      aria-current={section.active ? "page" : undefined}
      className={`relative rounded-md text-sm font-medium ${padding} ${section.active ? "bg-white text-slate-900" : idle}`}
    >
      {section.label}
      {section.count > 0 && <WaitingBadge count={section.count} testId="nav-count" />}
      <LinkPending />
    </Link>
  );
}

/**
 * The sections on a phone: a button that opens them as a full-width row of the header, below the
 * rest of it, so the page moves down instead of being covered and nothing is wider than the screen.
 * The header stays mounted from page to page, so the menu closes itself when the path changes; Escape
 * closes it too.
 */
function PhoneMenu({ sections }: { sections: Section[] }) {
  const pathname = usePathname();
  const [open, setOpen] = useState(false);
  const [pathSeen, setPathSeen] = useState(pathname);
  if (pathSeen !== pathname) {
    // Reset during render, as React advises for state that follows a prop: no frame shows it still open.
    setPathSeen(pathname);
    setOpen(false);
  }
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLElement>(null);
  const menuId = useId();
  const hydrated = useHydrated();
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      // Focus in the menu would be lost with it: it goes back to the button that opened it.
      if (menu.current?.contains(document.activeElement)) button.current?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);
  const current = sections.find((section) => section.active)?.label ?? "Sections";
  const waiting = sections.reduce((sum, section) => sum + section.count, 0);
  return (
    <>
      <button
        ref={button}
        type="button"
        disabled={!hydrated}
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen(!open)}
        className="rounded-md border border-slate-600 px-3 py-1 text-sm font-medium text-white hover:bg-slate-700 lg:hidden"
        data-testid="nav-menu"
      >
        {current} <span aria-hidden="true">▾</span>
        {waiting > 0 && <WaitingBadge count={waiting} />}
      </button>
      <nav
        ref={menu}
        id={menuId}
        hidden={!open}
        className="order-last flex w-full flex-col gap-1 border-t border-slate-700 pt-2 lg:hidden"
        aria-label="Sections menu"
      >
        {sections.map((section) => (
          <SectionLink
            key={section.href}
            section={section}
            padding="px-3 py-2"
            idle="text-slate-200 hover:bg-slate-700"
            onNavigate={() => setOpen(false)}
          />
        ))}
      </nav>
    </>
  );
}

/** The dashboard's sections: links in a row on a wide screen, a menu that opens on a phone. */
export function NavLinks({ team, counts = {} }: { team: string; counts?: SectionCounts }) {
  const sections = useSections(team, counts);
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
      <PhoneMenu sections={sections} />
    </>
  );
}
