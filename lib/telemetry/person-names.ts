/**
 * How the dashboard names a person telemetry reported. Claude Code signed in with an API key sends
 * only `user.id`, a 64-hex hash no lead can map to anyone: such a person is "unknown person #n",
 * counted like anyone else but never shown as hex. `n` is the hash's place among the team's
 * hashes (lib/telemetry/unknown-people.ts). Pure. docs/decisions/people-as-people.md.
 */

const HASHED_PERSON = /^[0-9a-f]{64}$/i;

/** Whether a person is Claude Code's `user.id` hash rather than an email or an account id. */
export function isHashedPerson(person: string): boolean {
  return HASHED_PERSON.test(person);
}

/** A person as shown: their email (or account id) as it came, a hash by its number. */
export interface NamedPerson {
  name: string;
  unknown: boolean;
}

/**
 * The name of `person`; `numberOf` gives a hash its number in the team. A hash without one (it
 * arrived after the numbers were read) is still never hex: it is "unknown person" alone.
 */
export function personName(person: string, numberOf: ReadonlyMap<string, number>): NamedPerson {
  if (!isHashedPerson(person)) return { name: person, unknown: false };
  const n = numberOf.get(person.toLowerCase());
  return { name: n === undefined ? "unknown person" : `unknown person #${n}`, unknown: true };
}
