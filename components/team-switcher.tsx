"use client";

import { useRouter } from "next/navigation";

/** Moves to the same page of another team the person belongs to. */
export function TeamSwitcher({ current, teams, section }: { current: string; teams: { slug: string; name: string }[]; section: string }) {
  const router = useRouter();
  return (
    <label className="flex items-center gap-2 text-sm text-slate-300">
      <span className="sr-only">Team</span>
      <select
        aria-label="Team"
        value={current}
        onChange={(event) => router.push(`/t/${event.target.value}${section}`)}
        className="rounded-md border border-slate-600 bg-slate-800 px-2 py-1 text-white"
      >
        {teams.map((team) => (
          <option key={team.slug} value={team.slug}>
            {team.name}
          </option>
        ))}
      </select>
    </label>
  );
}
