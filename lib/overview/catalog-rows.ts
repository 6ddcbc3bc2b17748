import { lintDescription } from "../lint/lint";
import { collisionLabel, latestVersionOf, servedOf, type Catalog, type CatalogSkill, type TeamLabels } from "../skills/catalog";
import type { CatalogRow } from "./table";

/**
 * Catalog rows per catalog version and `descMax` (labels change the catalog's revision too, so
 * they are of the same version): linting 10,000 descriptions on every render of
 * the overview cost more than the rest of the page. A catalog object stands for one version (the
 * catalog cache hands out the same object until the catalog changes), so it keys the cache and
 * the rows go when it does. Rows come sorted by name, so a stable sort by any column keeps names
 * in order within equal values and the default order needs no sort at all.
 */
const byCatalog = new WeakMap<Catalog, { descMax: number; rows: CatalogRow[] }>();

export function catalogRows(catalog: Catalog, descMax: number, labels: TeamLabels): CatalogRow[] {
  const cached = byCatalog.get(catalog);
  if (cached?.descMax === descMax) return cached.rows;
  const rows = buildRows(catalog, descMax, labels).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  byCatalog.set(catalog, { descMax, rows });
  return rows;
}

function buildRows(catalog: Catalog, descMax: number, labels: TeamLabels): CatalogRow[] {
  const winners = new Map(catalog.active.map((skill) => [skill.name, skill]));
  const losers = new Map<string, string[]>();
  for (const skill of catalog.shadowed) losers.set(skill.name, [...(losers.get(skill.name) ?? []), collisionLabel(skill)]);
  return [...catalog.active, ...catalog.shadowed, ...catalog.drafts].map((skill) => ({
    name: skill.name,
    source: skill.source,
    scope: skill.scope,
    version: skill.version,
    served: { why: servedOf(skill).why, latest: latestVersionOf(skill) },
    labels: skill.scope === "learned" ? (labels.get(skill.name) ?? []) : [],
    status: skill.status,
    folder: skill.folder,
    lint: lintDescription(skill.description, descMax),
    collision: collisionOf(skill, winners.get(skill.name), losers.get(skill.name)),
    provenance:
      skill.provenance && (skill.provenance.ref ? `${skill.provenance.source} · ${skill.provenance.ref}` : skill.provenance.source),
  }));
}

/** "shadowed by builtin", "shadows file skills/x", or null. */
function collisionOf(skill: CatalogSkill, winner: CatalogSkill | undefined, shadows: string[] | undefined): string | null {
  if (skill.status === "shadowed" && winner) return `shadowed by ${collisionLabel(winner)}`;
  if (skill.status === "active" && shadows) return `shadows ${shadows.join(", ")}`;
  return null;
}
