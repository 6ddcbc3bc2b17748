// The start-up variables that mean nothing without SKILLGATE_INIT_TEAM (docs/teams-and-keys.md#headless-start-up). Plain JavaScript so
// that `npm start` (scripts/start.mjs, which runs before anything is built) and the server
// (lib/env.ts) refuse the same configuration in the same words.

/** Each variable that needs a team, and what the team is to it. */
const NEEDS_TEAM = {
  SKILLGATE_INIT_API_KEY: "the key is for",
  SKILLGATE_INIT_USER_EMAIL: "the user leads",
  SKILLGATE_INIT_USER_PASSWORD: "the user leads",
};

/**
 * Why this configuration cannot start, or null. A start-up key or lead with no team would grant
 * nothing, and under `npm start` the demo's would replace it: its requests would get 401 with no
 * word of why. So it is refused, saying what to set.
 */
export function initWithoutTeam(source) {
  const isSet = (name) => (source[name] ?? "").trim() !== "";
  if (isSet("SKILLGATE_INIT_TEAM")) return null;
  const set = Object.keys(NEEDS_TEAM).filter(isSet);
  if (set.length === 0) return null;
  const purposes = new Set(set.map((name) => NEEDS_TEAM[name]));
  const purpose = purposes.size === 1 ? [...purposes][0] : "they are for";
  const named = set.length === 1 ? set[0] : `${set.slice(0, -1).join(", ")} and ${set.at(-1)}`;
  return set.length === 1
    ? `${named} is set but SKILLGATE_INIT_TEAM is not: set SKILLGATE_INIT_TEAM to the team(s) ${purpose}, or unset ${named}`
    : `${named} are set but SKILLGATE_INIT_TEAM is not: set SKILLGATE_INIT_TEAM to the team(s) ${purpose}, or unset them`;
}
