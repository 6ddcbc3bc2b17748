"use client";

import { usePathname, useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { switchTeamHref } from "@/lib/sections";

/**
 * Moves to another team the person belongs to: the same section, or its overview from a page of one
 * thing (switchTeamHref). The move is a transition: the list shows the chosen team, busy and pulsing,
 * until that team's page is on the screen.
 */
export function TeamSwitcher({ current, teams }: { current: string; teams: { slug: string; name: string }[] }) {
  const router = useRouter();
  const pathname = usePathname();
  const [switching, startSwitch] = useTransition();
  // The list shows the team chosen while its page comes (it would otherwise jump back to this one).
  const [chosen, setChosen] = useState(current);
  // At the address of a team the person is not in, the list says so instead of naming one of theirs.
  const outside = !teams.some((team) => team.slug === current);
  return (
    <label className="flex items-center gap-2 text-sm text-slate-300">
      <span className="sr-only">Team</span>
      <select
        aria-label="Team"
        value={switching ? chosen : current}
        aria-busy={switching}
        onChange={(event) => {
          const href = switchTeamHref(pathname, current, event.target.value);
          setChosen(event.target.value);
          startSwitch(() => router.push(href));
        }}
        className={`max-w-40 rounded-md border border-slate-600 bg-slate-800 px-2 py-1 text-white ${switching ? "animate-pulse" : ""}`}
      >
        {outside && (
          <option value={current} disabled>
            Choose a team
          </option>
        )}
        {teams.map((team) => (
          <option key={team.slug} value={team.slug}>
            {team.name}
          </option>
        ))}
      </select>
    </label>
  );
}
