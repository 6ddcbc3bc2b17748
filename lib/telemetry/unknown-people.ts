import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { rowsOf } from "@/db/rows";
import type { TeamId } from "../teams/teams";
import { isHashedPerson } from "./person-names";

/**
 * The numbers of the team's unknown people (lib/telemetry/person-names.ts) among `persons`: each
 * hash the team's telemetry ever reported is numbered by the first day it activated a skill, then
 * by the hash, from the daily people rollup, which is kept for good. A hash keeps its number as
 * days go by and new ones come after it; only a hash reported late, with a day earlier than a
 * newer hash's first, could come before it. Keyed by the hash in lower case.
 */
export async function unknownPeopleNumbers(db: Db, teamId: TeamId, persons: readonly string[]): Promise<Map<string, number>> {
  const hashes = [...new Set(persons.filter(isHashedPerson).map((person) => person.toLowerCase()))];
  if (hashes.length === 0) return new Map();
  const result = await db.execute(sql`
    with firsts as (
      select lower(person) as person, min(day) as first_day
      from skill_activation_people
      where team_id = ${teamId}::int and person ~* '^[0-9a-f]{64}$'
      group by lower(person)
    ),
    numbered as (select person, row_number() over (order by first_day, person) as n from firsts)
    select person, n from numbered where person in (${sql.join(
      hashes.map((hash) => sql`${hash}`),
      sql`, `,
    )})`);
  // row_number() is a bigint: node-postgres gives it as text.
  const rows = rowsOf<{ person: string; n: number | string }>(result);
  return new Map(rows.map((row) => [row.person, Number(row.n)]));
}
