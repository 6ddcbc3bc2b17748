import type { Db } from "@/db/client";
import { classOf } from "./prompt-sets";
import { runReport } from "./runs";

type Report = Awaited<ReturnType<typeof runReport>>;

interface Side {
  passed: number;
  runs: number;
  loaded: string[];
}

function sideOf(report: Report, caseId: string): Side | null {
  const results = report.results.filter((r) => r.id === caseId);
  if (results.length === 0) return null;
  return {
    passed: results.filter((r) => r.passed).length,
    runs: results.length,
    loaded: [...new Set(results.flatMap((r) => r.loaded))].sort(),
  };
}

/** Two runs side by side, case by case (docs/evaluation-and-activation.md#activation-evals): before and after a description change. */
export async function compareRuns(db: Db, teamId: number, a: number, b: number) {
  const [ra, rb] = await Promise.all([runReport(db, teamId, a), runReport(db, teamId, b)]);
  const ids = [...new Set([...ra.cases.map((c) => c.id), ...rb.cases.map((c) => c.id)])].sort();
  const cases = ids.map((id) => {
    const c = ra.cases.find((x) => x.id === id) ?? rb.cases.find((x) => x.id === id);
    if (!c) throw new Error(`case "${id}" came from one of the runs, yet neither has it`);
    const before = sideOf(ra, id);
    const after = sideOf(rb, id);
    const share = (side: Side | null) => (side ? side.passed / side.runs : null);
    const x = share(before);
    const y = share(after);
    const change = x === null ? "only-b" : y === null ? "only-a" : y > x ? "better" : y < x ? "worse" : "same";
    return { id, class: classOf(id), prompt: c.prompt, expected: c.expected, expectNone: c.expectNone, a: before, b: after, change };
  });
  const summary = (r: Report) => ({
    id: r.id,
    status: r.status,
    activator: r.activator,
    modelId: r.modelId,
    createdAt: r.createdAt,
    metrics: r.metrics ?? null,
    listingText: r.listingText,
  });
  return { a: summary(ra), b: summary(rb), cases };
}
