import type { CatalogCache, CatalogKey } from "../skills/catalog-cache";
import { resolveSkill } from "../skills/view";
import { formatLint, lintDescription } from "./lint";

export async function lintSkill(catalogs: CatalogCache, team: CatalogKey & { descMax: number }, name: string): Promise<string> {
  const skill = await resolveSkill(catalogs, team, name);
  return formatLint(lintDescription(skill.description, team.descMax));
}
