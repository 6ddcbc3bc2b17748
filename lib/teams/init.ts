import type { Db } from "@/db/client";
import type { InitConfig } from "../env";
import { ensureApiKey } from "../auth/api-keys";
import { ensureUser } from "../auth/users";
import { ensureTeam, setMembership, type Team } from "./teams";

/**
 * Headless start-up (§1): makes sure each SKILLGATE_INIT_TEAM exists, that the key at the same
 * position of SKILLGATE_INIT_API_KEY is one of its admin keys, and that every
 * SKILLGATE_INIT_USER_EMAIL exists with its password and is lead of every one of those teams.
 */
export async function applyInitConfig(db: Db, init: InitConfig): Promise<Team[]> {
  return db.transaction(async (tx) => {
    const teams: Team[] = [];
    for (const [i, slug] of init.teams.entries()) {
      const team = await ensureTeam(tx, slug);
      const key = init.apiKeys[i];
      if (key) {
        await ensureApiKey(tx, { teamId: team.id, name: "SKILLGATE_INIT_API_KEY", scopes: ["read", "write", "admin"] }, key);
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
