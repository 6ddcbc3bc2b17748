import { and, eq, gte, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { skillActivationDays, typedOnlySkills } from "@/db/schema";
import type { CatalogCache } from "../skills/catalog-cache";
import { getTeam, type TeamId } from "../teams/teams";
import { enqueueEvents } from "../webhooks/outbox";
import { ACTIVATION_DAYS, activationsBySkill, typedOnly } from "./activations";
import { daysBefore } from "./rollups";

/** The advisory lock (with the team's id) that takes one team's announcement at a time, whatever the instances. */
const TYPED_ONLY_LOCK = 7_310_039;

/**
 * `skill.only_typed` (docs/learned-skills.md#webhooks-and-mail): a skill the catalog serves becomes "used only by /name"
 * (docs/telemetry.md#activations) when telemetry brings a typed activation, or when its last proactive one leaves the
 * 30-day window — no request marks either moment, so the background tick looks. The names flagged
 * are kept (`typed_only_skills`): a name that comes in is announced once, one that leaves is
 * forgotten (so it is announced again if it comes back), and one that stays is not announced again.
 * The same rule as the overview's and the usage API's flag (`typedOnly`), over the same window.
 */
export async function announceTypedOnly(deps: { db: Db; catalogs: CatalogCache }, now = new Date()): Promise<void> {
  const since = daysBefore(now, ACTIVATION_DAYS - 1);
  const active = await deps.db
    .selectDistinct({ teamId: skillActivationDays.teamId })
    .from(skillActivationDays)
    .where(gte(skillActivationDays.day, since));
  const flagged = await deps.db.selectDistinct({ teamId: typedOnlySkills.teamId }).from(typedOnlySkills);
  const teamIds = new Set([...active, ...flagged].map((row) => row.teamId as TeamId));
  for (const teamId of teamIds) await announceForTeam(deps, teamId, now);
}

async function announceForTeam({ db, catalogs }: { db: Db; catalogs: CatalogCache }, teamId: TeamId, now: Date): Promise<void> {
  // Read before the transaction: the catalog cache reads on its own connection, which on the
  // embedded database would wait for the transaction to end.
  const catalog = await catalogs.catalog(await getTeam(db, teamId));
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${TYPED_ONLY_LOCK}, ${teamId}::int)`);
    const activated = await activationsBySkill(tx, teamId, now);
    const typed = new Map([...activated].filter(([name, counts]) => catalog.named.has(name) && typedOnly(counts)));
    const known = new Set(
      (await tx.select({ name: typedOnlySkills.skillName }).from(typedOnlySkills).where(eq(typedOnlySkills.teamId, teamId))).map(
        (row) => row.name,
      ),
    );
    const left = [...known].filter((name) => !typed.has(name));
    if (left.length > 0) {
      await tx.delete(typedOnlySkills).where(and(eq(typedOnlySkills.teamId, teamId), inArray(typedOnlySkills.skillName, left)));
    }
    const came = [...typed.keys()].filter((name) => !known.has(name));
    if (came.length === 0) return;
    const added = await tx
      .insert(typedOnlySkills)
      .values(came.map((skillName) => ({ teamId, skillName })))
      .onConflictDoNothing()
      .returning({ name: typedOnlySkills.skillName });
    await enqueueEvents(
      tx,
      teamId,
      added.map(({ name }) => ({ event: "skill.only_typed", data: { skill: name, slash: typed.get(name)?.slash ?? 0 } })),
    );
  });
}
