"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { CARD } from "@/components/ui/card";

/** A skill, plan, run or evaluation this team does not have: said inside the team's pages, with its navigation. */
export default function TeamNotFound() {
  const team = usePathname().split("/")[2] ?? "";
  return (
    <div className={`space-y-3 ${CARD} p-6`} data-testid="not-found">
      <h1 className="text-xl font-semibold">Not found</h1>
      <p className="text-sm text-slate-600">
        This team has nothing at this address: the skill, plan, run or evaluation may have been renamed, archived or never existed.
      </p>
      <Link href={`/t/${team}`} className="text-sm font-medium text-indigo-700 underline">
        Back to the overview
      </Link>
    </div>
  );
}
