import { specError, type AppError } from "../errors";
import type { CatalogCache, CatalogKey } from "../skills/catalog-cache";
import { latestVersionOf } from "../skills/catalog";
import type { AmendmentState } from "./amendment-states";

/**
 * Out of date (docs/evaluation-and-activation.md#out-of-date-amendments): an amendment is written against the skill's latest version; once the skill
 * has a newer one and the amendment is not decided yet, it can no longer go live as it is and can
 * only be re-proposed against the current version. Derived each time it is read, never stored.
 */

/** The states of an amendment nobody has decided on yet: it could still go live. */
export const UNDECIDED: readonly AmendmentState[] = ["pending", "evaluating", "evaluated", "awaiting-approval"];

/** Where an amendment stands against its skill, as every listing says it. */
export interface Currency {
  /** Not decided yet, and the skill has moved past the version it was written against. */
  outdated: boolean;
  /** The version it was written against. */
  base: number;
  /** The skill's latest version now; null when the name resolves to no skill any more. */
  current: number | null;
}

/** The latest version of each of these skills as the team's catalog resolves them now (the one an approval would build on). */
export async function latestVersions(
  catalogs: CatalogCache,
  team: CatalogKey,
  names: Iterable<string>,
): Promise<Map<string, number | null>> {
  const catalog = await catalogs.catalog({ ...team, label: null });
  const latest = new Map<string, number | null>();
  for (const name of names) {
    const skill = catalog.named.get(name);
    latest.set(name, skill ? latestVersionOf(skill) : null);
  }
  return latest;
}

export function currencyOf(amendment: { status: AmendmentState; baseVersion: number }, current: number | null): Currency {
  const outdated = UNDECIDED.includes(amendment.status) && current !== null && current !== amendment.baseVersion;
  return { outdated, base: amendment.baseVersion, current };
}

/** `409 AmendmentOutdated`: it cannot go live, since the skill moved past the version it was written against. */
export function amendmentOutdated(amendment: { id: number; skillName: string; baseVersion: number }, current: number): AppError {
  return specError(
    "AmendmentOutdated",
    `amendment #${amendment.id} was written against v${amendment.baseVersion} of "${amendment.skillName}", which is at v${current} now; re-propose it against v${current}`,
  );
}
