// A burst of requests sent all at once, as installers send them (issue 38): what came back, how
// long each took, and how many statements the server sent its database meanwhile.
import { percentile } from "./percentile";

export interface Burst {
  requests: number;
  /** Answers by status, and by error code for the 503s: `200`, `503 Overloaded`, `503 DatabaseUnavailable`, … */
  answers: Map<string, number>;
  p50: number;
  p99: number;
  /** Statements the server sent its database during the burst. */
  statements: number;
}

/** What an answer was: its status, with the error code when it is a 5xx. */
async function kindOf(res: Response): Promise<string> {
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status < 500) return String(res.status);
  try {
    return `${res.status} ${(JSON.parse(body.toString()) as { error: { code: string } }).error.code}`;
  } catch {
    return String(res.status);
  }
}

/** Sends every URL at the same moment; `statements` reads the count of statements the database was sent. */
export async function burst(urls: string[], headers: Record<string, string>, statements: () => number): Promise<Burst> {
  const before = statements();
  const answers = new Map<string, number>();
  const times = await Promise.all(
    urls.map(async (url) => {
      const started = performance.now();
      const kind = await fetch(url, { headers }).then(kindOf, (error: Error) => `no answer (${error.message})`);
      answers.set(kind, (answers.get(kind) ?? 0) + 1);
      return performance.now() - started;
    }),
  );
  const sorted = times.sort((a, b) => a - b);
  return { requests: urls.length, answers, p50: percentile(sorted, 50), p99: percentile(sorted, 99), statements: statements() - before };
}

/** "2,498 × 200, 2 × 503 Overloaded" */
export function describeAnswers(answers: Map<string, number>): string {
  return [...answers]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([kind, n]) => `${n.toLocaleString("en-US")} × ${kind}`)
    .join(", ");
}
