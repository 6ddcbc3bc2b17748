import type { Database } from "@/db/client";
import { sha256Hex } from "../hash";
import type { LabelName } from "../skills/label";
import type { InstallLinkId } from "../teams/install-links";
import { AUTH_TEAM_COLUMNS, authTeam, type AuthTeamRow, type KeyAuth } from "./api-keys";

/** What every install link's token starts with (lib/teams/install-links.ts makes them). */
export const INSTALL_LINK_PREFIX = "sgi_";

/** The team a link reads, with the label it was made for. */
export type LinkTeam = KeyAuth["team"] & { label: LabelName | null };

export interface LinkAuth {
  linkId: InstallLinkId;
  team: LinkTeam;
}

const AUTHENTICATE = `
  select l.id as link_id, l.label, ${AUTH_TEAM_COLUMNS}
  from install_links l join teams t on t.id = l.team_id
  where l.token_hash = $1 and l.revoked_at is null
  limit 1`;

/** The link's team in one query, as a key's is read; null for an unknown or revoked token. */
export async function authenticateInstallLink(database: Pick<Database, "query">, token: string): Promise<LinkAuth | null> {
  if (!token.startsWith(INSTALL_LINK_PREFIX)) return null;
  const [row] = await database.query<AuthTeamRow & { link_id: number; label: string | null }>(AUTHENTICATE, [sha256Hex(token)]);
  return row ? { linkId: row.link_id as InstallLinkId, team: { ...authTeam(row), label: row.label as LabelName | null } } : null;
}
