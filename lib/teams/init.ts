import type { Db } from "@/db/client";
import type { InitConfig } from "../env";
import { ensureApiKey, renameKeys } from "../auth/api-keys";
import { ensureUser } from "../auth/users";
import { ensureTeam, setMembership, type Team } from "./teams";

/** What a key made from SKILLGATE_INIT_API_KEY is called in Settings and History. */
export const START_UP_KEY_NAME = "start-up key";
/** The name such keys had before issue 27: the variable's, which read as a leaked setting rather than a key. */
const FORMER_START_UP_KEY_NAME = "SKILLGATE_INIT_API_KEY";

/**
 * Headless start-up (docs/teams-and-keys.md#headless-start-up): makes sure each SKILLGATE_INIT_TEAM exists, that the key at the same
 * position of SKILLGATE_INIT_API_KEY is one of its admin keys, and that every
 * SKILLGATE_INIT_USER_EMAIL exists with its password and is lead of every one of those teams.
 * Keys made under the former name are renamed, in every team: once done, it changes nothing.
 */
export async function applyInitConfig(db: Db, init: InitConfig): Promise<Team[]> {
  return db.transaction(async (tx) => {
    await renameKeys(tx, FORMER_START_UP_KEY_NAME, START_UP_KEY_NAME);
    const teams: Team[] = [];
    for (const [i, slug] of init.teams.entries()) {
      const team = await ensureTeam(tx, slug);
      const key = init.apiKeys[i];
      if (key) {
        await ensureApiKey(tx, { teamId: team.id, name: START_UP_KEY_NAME, scopes: ["read", "write", "admin"] }, key);
      }
      teams.push(team);
    }
    for (const [i, email] of init.userEmails.entries()) {
      const user = await ensureUser(tx, email, init.userPasswords[i]);
      for (const team of teams) await setMembership(tx, team.id, user.id, "lead");
    }
    return teams;
  });
}
