"use client";

import { usePathname, useRouter } from "next/navigation";

/** The section a dashboard path is in (`/listing`, `/settings`…), kept when switching teams; deeper pages (one skill, one run) belong to their team. */
function sectionOf(pathname: string, team: string): string {
  const rest = pathname.slice(`/t/${team}`.length);
  return /^\/[a-z]+/.exec(rest)?.[0] ?? "";
}

/** Moves to the same section of another team the person belongs to. */
export function TeamSwitcher({ current, teams }: { current: string; teams: { slug: string; name: string }[] }) {
  const router = useRouter();
  const pathname = usePathname();
  return (
    <label className="flex items-center gap-2 text-sm text-slate-300">
      <span className="sr-only">Team</span>
      <select
        aria-label="Team"
        value={current}
        onChange={(event) => router.push(`/t/${event.target.value}${sectionOf(pathname, current)}`)}
        className="max-w-40 rounded-md border border-slate-600 bg-slate-800 px-2 py-1 text-white"
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
