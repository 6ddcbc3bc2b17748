import type { Db } from "@/db/client";
import { AppError, isAppError, specError } from "../errors";
import type { Actor } from "../learned/actor";
import type { CatalogCache, CatalogKey } from "../skills/catalog-cache";
import { parseSkillMd } from "../skills/skill-md";
import { loadSkillContent, type SkillContent } from "../skills/view";
import type { TeamId } from "../teams/teams";
import {
  checkAmendedText,
  getAmendment,
  insertAmendment,
  latestContent,
  recentFailures,
  type AmendmentInput,
  type AmendmentRow,
} from "./amendments";
import { amendmentStateChanged, moveAmendment, MOVES, type AmendmentState } from "./amendment-states";
import { requireModel, type ConfiguredModel } from "./model";
import { askForChange, proposalRefused } from "./proposal";
import { describeSpans, mergeField, mergeText, type LineSpan } from "./three-way";

/**
 * Re-proposing an out-of-date amendment (docs/evaluation-and-activation.md#out-of-date-amendments): its change, made against a version the skill has
 * moved past, is applied to the current version — merged three-way, or written again by the model
 * from the skill's recorded failures — as a new pending amendment, and the old one is superseded by
 * it. The new amendment and the old one's move are one transaction, conditional on the old one's
 * state: of any number of concurrent re-proposals exactly one makes a new amendment.
 */

/** What to do about a conflict, as an API client reads it; a page says it in its own words. */
export const REGENERATE_HINT = 'Have the model write it again ({"regenerate": true}), or propose a new amendment by hand';

export interface ReproposeDeps {
  db: Db;
  catalogs: CatalogCache;
  model: ConfiguredModel | null;
}

export interface Reproposed {
  id: number;
  status: "pending";
  base: number;
  reproposedFrom: number;
}

export async function reproposeAmendment(
  deps: ReproposeDeps,
  team: CatalogKey,
  actor: Actor,
  amendmentId: number,
  options: { regenerate?: boolean } = {},
): Promise<Reproposed> {
  const old = await getAmendment(deps.db, team.id, amendmentId);
  if (!(MOVES.repropose.from as readonly AmendmentState[]).includes(old.status)) {
    throw amendmentStateChanged(amendmentId, old.status, "repropose");
  }
  const current = await latestContent(deps.db, deps.catalogs, team, old.skillName);
  if (current.version === old.baseVersion) {
    throw specError(
      "NotOutdated",
      `amendment #${old.id} is written against v${current.version}, the latest version of "${old.skillName}": there is nothing to re-propose it against`,
    );
  }
  const [change, origin] = options.regenerate
    ? [await regenerated(deps, team.id, old, current), "generated" as const]
    : [await merged(deps, team, old, current), old.origin];
  const id = await deps.db.transaction(async (tx) => {
    const id = await insertAmendment(tx, team.id, actor, current, change, origin, old.id);
    await moveAmendment(tx, team.id, old.id, "repropose", "superseded", { supersededBy: id });
    return id;
  });
  return { id, status: "pending", base: current.version, reproposedFrom: old.id };
}

const reproposedFrom = (old: AmendmentRow) => ` (re-proposed from #${old.id})`;

/** The old amendment's change merged onto the current text: base → amendment, applied to current. */
async function merged(deps: ReproposeDeps, team: CatalogKey, old: AmendmentRow, current: SkillContent): Promise<AmendmentInput> {
  const base = await baseContent(deps, team, old, current);
  const body = old.body === null ? ({ ok: true, value: current.body } as const) : mergeText(base.body, old.body, current.body);
  const description = mergeField(descriptionOf(base), old.description, descriptionOf(current));
  if (!body.ok || !description.ok) {
    throw mergeConflict(old, current.version, body.ok ? [] : body.conflicts, !description.ok);
  }
  const change = {
    body: body.value === current.body ? undefined : body.value,
    description: description.value ?? undefined,
    rationale: old.rationale + reproposedFrom(old),
  };
  if (change.body === undefined && change.description === undefined) {
    throw new AppError(
      "Unprocessable",
      `amendment #${old.id}'s change is in v${current.version} of "${old.skillName}" already: there is nothing to re-propose`,
    );
  }
  checkAmendedText(current, change);
  return change;
}

/** The version the amendment was written against; a built-in or global skill keeps only the version it ships, so its older ones cannot be merged from. */
async function baseContent(deps: ReproposeDeps, team: CatalogKey, old: AmendmentRow, current: SkillContent): Promise<SkillContent> {
  try {
    return await loadSkillContent(deps.db, deps.catalogs, team, old.skillName, old.baseVersion);
  } catch (error) {
    if (!isAppError(error) || error.code !== "VersionNotFound") throw error;
    throw specError(
      "MergeConflict",
      `amendment #${old.id}'s change cannot be merged onto v${current.version} of "${old.skillName}": v${old.baseVersion}, which it was written against, is no longer kept; nothing was written. ${REGENERATE_HINT}`,
    );
  }
}

/** `409 MergeConflict`: where the amendment and the skill both changed the same text since the amendment's base. */
function mergeConflict(old: AmendmentRow, current: number, body: LineSpan[], description: boolean): AppError {
  const parts = [
    ...(body.length > 0 ? [`the body at ${describeSpans(body)} of v${old.baseVersion}`] : []),
    ...(description ? ["the description"] : []),
  ];
  return specError(
    "MergeConflict",
    `amendment #${old.id}'s change does not apply cleanly to v${current} of "${old.skillName}": it and v${current} both changed ${parts.join(" and ")}; nothing was written. ${REGENERATE_HINT}`,
  );
}

function descriptionOf(content: SkillContent): string {
  return (parseSkillMd(content.frontmatter + content.body).fields as { description: string }).description;
}

/** The model writes the change again for the current text, from the skill's recorded failures and the old amendment's intent. */
async function regenerated(deps: ReproposeDeps, teamId: TeamId, old: AmendmentRow, current: SkillContent): Promise<AmendmentInput> {
  const model = requireModel(deps.model);
  const failures = await recentFailures(deps.db, teamId, old.skillName);
  const proposal = await askForChange(model, current, failures, old);
  const change = { ...proposal, rationale: proposal.rationale + reproposedFrom(old) };
  try {
    checkAmendedText(current, change);
  } catch (error) {
    throw proposalRefused(error) ?? error;
  }
  return change;
}
