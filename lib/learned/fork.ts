import type { CatalogKey } from "../skills/catalog-cache";
import { composeSkillMd, parseSkillMd } from "../skills/skill-md";
import { loadSkillContent } from "../skills/view";
import type { TeamId } from "../teams/teams";
import type { Actor } from "./actor";
import { insertLearned, type Deps, type LearnedStatus } from "./write";

export interface ForkSource {
  team: CatalogKey & { slug: string };
  name: string;
}

/**
 * Forks any visible skill, of any source, into a new learned skill (docs/learned-skills.md#forks-and-verification). The fork records
 * where it came from as `<team>/<name>@v<N>`; the source is untouched.
 */
export async function forkSkill(
  deps: Deps,
  source: ForkSource,
  targetTeamId: TeamId,
  actor: Actor,
  input: { name: string; status?: LearnedStatus },
) {
  const content = await loadSkillContent(deps.db, deps.catalogs, source.team, source.name);
  const forkedFrom = `${source.team.slug}/${content.name}@v${content.version}`;
  const { fields } = parseSkillMd(content.frontmatter + content.body);
  const metadata = { ...((fields.metadata as Record<string, string> | undefined) ?? {}) };
  // The source's declared version is not the fork's: the fork starts at v1.
  delete metadata.version;
  const skillMd = composeSkillMd({ ...(fields as { name: string; description: string }), name: input.name, metadata }, content.body);
  const created = await insertLearned(deps, targetTeamId, actor, {
    skillMd,
    status: input.status ?? "draft",
    reason: `forked from ${forkedFrom}`,
    forkedFrom,
  });
  return { ...created, forkedFrom };
}
