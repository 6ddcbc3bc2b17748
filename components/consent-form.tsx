"use client";

import { useActionState, useState } from "react";
import { ActionMessage } from "@/components/action-message";
import { buttonClass } from "@/components/ui/submit-button";
import type { ActionResult } from "@/lib/actions/result";
import { highestLevel, LEVEL_WORDS, roleAllows } from "@/lib/oauth/access";
import { ACCESS_LEVELS, type AccessLevel, type Role } from "@/lib/auth/scopes";

/** What the form offers first: as much as the role allows short of admin, which a lead picks on purpose. */
function suggestedLevel(role: Role): AccessLevel {
  const highest = highestLevel(role);
  return highest === "admin" ? "write" : highest;
}

/**
 * The member's answer to a client that asks to act for them: one of their teams, and what the
 * client may do there, never more than their role in that team allows.
 */
export function ConsentForm({
  teams,
  action,
}: {
  teams: { slug: string; name: string; role: Role }[];
  action: (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;
}) {
  const [state, formAction, pending] = useActionState(action, null);
  const [teamSlug, setTeamSlug] = useState(teams[0]?.slug ?? "");
  const role = teams.find((team) => team.slug === teamSlug)?.role ?? "viewer";
  const [level, setLevel] = useState<AccessLevel>(suggestedLevel(role));
  const allowed = roleAllows(role, level) ? level : suggestedLevel(role);
  return (
    <form action={formAction} className="space-y-4" data-testid="consent-form">
      <ActionMessage state={state} />
      <label className="block text-sm font-medium">
        Team
        <select
          name="team"
          value={teamSlug}
          onChange={(event) => setTeamSlug(event.target.value)}
          className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
        >
          {teams.map((team) => (
            <option key={team.slug} value={team.slug}>
              {team.name} ({team.role})
            </option>
          ))}
        </select>
      </label>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">The client may</legend>
        {ACCESS_LEVELS.map((option) => (
          <label key={option} className={`flex gap-2 text-sm ${roleAllows(role, option) ? "" : "text-slate-400"}`}>
            <input
              type="radio"
              name="level"
              value={option}
              checked={allowed === option}
              disabled={!roleAllows(role, option)}
              onChange={() => setLevel(option)}
              className="mt-1"
            />
            <span>
              <span className="font-medium">{option}</span>: {LEVEL_WORDS[option]}
              {!roleAllows(role, option) && " (more than your role in this team)"}
            </span>
          </label>
        ))}
      </fieldset>
      <div className="flex flex-wrap gap-2">
        <button type="submit" name="answer" value="allow" disabled={pending} className={buttonClass("approve", "sm")}>
          Allow
        </button>
        <button type="submit" name="answer" value="refuse" disabled={pending} className={buttonClass("plain", "sm")}>
          Refuse
        </button>
      </div>
    </form>
  );
}
