"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

const SECTIONS = [
  { href: "", label: "Overview" },
  { href: "/listing", label: "Listing budget" },
  { href: "/activation", label: "Activation" },
  { href: "/ledger", label: "Ledger" },
  { href: "/history", label: "History" },
  { href: "/settings", label: "Settings" },
];

export function NavLinks({ team }: { team: string }) {
  const pathname = usePathname();
  return (
    <nav className="flex gap-1" aria-label="Sections">
      {SECTIONS.map((section) => {
        const href = `/t/${team}${section.href}`;
        const active = section.href === "" ? pathname === href : pathname.startsWith(href);
        return (
          <Link
            key={section.href}
            href={href}
            aria-current={active ? "page" : undefined}
            className={`rounded-md px-3 py-1.5 text-sm font-medium ${active ? "bg-white text-slate-900" : "text-slate-300 hover:bg-slate-700 hover:text-white"}`}
          >
            {section.label}
          </Link>
        );
      })}
    </nav>
  );
}
