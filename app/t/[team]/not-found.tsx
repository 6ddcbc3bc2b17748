"use client";

import Link from "next/link";
import { CARD } from "@/components/ui/card";
import { useVisitor } from "@/components/visitor-context";

/**
 * Nothing at this address of a team, said inside the team's pages with their navigation: a skill,
 * plan, run or evaluation the team does not have, an unknown page, or a team the person is not in
 * (worded the same whether it exists or not, so it tells nothing of other teams).
 */
export default function TeamNotFound() {
  const { team, member, teams } = useVisitor();
  return (
    <div className={`space-y-3 ${CARD} p-6`} data-testid="not-found">
      <h1 className="text-xl font-semibold">Not found</h1>
      {member ? (
        <>
          <p className="text-sm text-slate-600">
            This team has nothing at this address: the skill, plan, run or evaluation may have been renamed, archived or never existed.
          </p>
          <Link href={`/t/${team}`} className="text-sm font-medium text-indigo-700 underline">
            Back to the overview
          </Link>
        </>
      ) : (
        <>
          <p className="text-sm text-slate-600">You are in no team called “{team}”. Your teams:</p>
          <ul className="space-y-1 text-sm" data-testid="your-teams">
            {teams.map((other) => (
              <li key={other.slug}>
                <Link href={`/t/${other.slug}`} className="font-medium text-indigo-700 underline">
                  {other.name}
                </Link>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
