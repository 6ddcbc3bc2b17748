import { expect } from "vitest";
import { CHARTS_KEY } from "./server";

/** One amendment of the charts team, as its latest evaluation left it. */
export interface Judged {
  id: number;
  evaluationId: number;
  verdict: string | null;
  delta: number | null;
}

/**
 * The charts team's history, which the history-charts and numbers tests both read: four amendments
 * judged with a delta (promoted, regressed, waiting, rejected) and two judged inconclusive. The stub
 * judge scores "better…" up, "worse…" down, the rest the same.
 */
export interface ChartsHistory {
  mixed: Judged;
  regressed: Judged;
  waiting: Judged;
  refused: Judged;
  /** Inconclusive: their skill has no recorded run to judge. */
  blank: Judged;
  blankAgain: Judged;
}

const RATIONALES: Record<keyof ChartsHistory, string> = {
  mixed: "try clearer",
  regressed: "try terser",
  waiting: "try waiting",
  refused: "try refused",
  blank: "try emptier",
  blankAgain: "try emptier still",
};

function apiOf(baseUrl: string) {
  return async <T>(path: string, body?: unknown, method = body === undefined ? "GET" : "POST"): Promise<T> => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${CHARTS_KEY}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
}

/**
 * The charts team's history, made by whichever test file asks first (test files share the server)
 * and read back by the others.
 */
export async function chartsHistory(baseUrl: string): Promise<ChartsHistory> {
  const api = apiOf(baseUrl);
  const made = await fetch(`${baseUrl}/api/v1/skills/sloped`, { headers: { authorization: `Bearer ${CHARTS_KEY}` } });
  if (made.status === 404) await make(api);
  const { amendments } = await api<{
    amendments: { id: number; rationale: string; verdict: string | null; delta: number | null; evaluation: { id: number } | null }[];
  }>("/api/v1/amendments?limit=100");
  const judged = (key: keyof ChartsHistory): Judged => {
    const entry = amendments.find((a) => a.rationale === RATIONALES[key]);
    if (!entry?.evaluation) throw new Error(`the charts team has no judged amendment "${RATIONALES[key]}"`);
    return { id: entry.id, evaluationId: entry.evaluation.id, verdict: entry.verdict, delta: entry.delta };
  };
  return {
    mixed: judged("mixed"),
    regressed: judged("regressed"),
    waiting: judged("waiting"),
    refused: judged("refused"),
    blank: judged("blank"),
    blankAgain: judged("blankAgain"),
  };
}

async function make(api: ReturnType<typeof apiOf>) {
  /** A learned skill with runs on these tasks, and an amendment to it, not yet judged. */
  const proposed = async (skill: string, tasks: string[], body: string, key: keyof ChartsHistory) => {
    await api("/api/v1/skills", {
      name: skill,
      description: `Charts ${skill}. Use when charting.`,
      body: `# ${skill}\n`,
      status: "active",
    }).catch((error: Error) => {
      if (!/409/.test(error.message)) throw error;
    });
    if (tasks.length > 0)
      await api("/api/v1/observations", { observations: tasks.map((task) => ({ skill, task, category: "charts", outcome: "failure" })) });
    return (await api<{ id: number }>(`/api/v1/skills/${skill}/amendments`, { body, rationale: RATIONALES[key] })).id;
  };
  const evaluate = (id: number) => api<{ verdict: string; delta: number | null }>(`/api/v1/amendments/${id}/evaluate`, {});

  // Proposed in one order and judged in the other: an amendment's number and its evaluation's
  // cannot then both agree, so a chart labelled by the wrong one shows it.
  const regressed = await proposed("sloped", ["same: the sloped review", "worse: the sloped deploy"], "# sloped\n\nterser\n", "regressed");
  const mixed = await proposed(
    "plotted",
    ["better: the first plotted run", "worse: the plotted rollout", "same: the plotted review", "better: the second plotted run"],
    "# plotted\n\nclearer\n",
    "mixed",
  );
  const judged = [await evaluate(mixed), await evaluate(regressed)];
  await api("/api/v1/settings", { autoPromote: false }, "PATCH");
  judged.push(await evaluate(await proposed("held", ["better: the held run"], "# held\n\nwaiting\n", "waiting")));
  const refused = await proposed("held", [], "# held\n\nrefused\n", "refused");
  judged.push(await evaluate(refused));
  await api(`/api/v1/amendments/${refused}/reject`, { reason: "not this quarter" });
  await api("/api/v1/skills/plotted/rollback", { toVersion: 1 });
  judged.push(await evaluate(await proposed("blank", [], "# blank\n\nemptier\n", "blank")));
  judged.push(await evaluate(await proposed("blank", [], "# blank\n\nemptier still\n", "blankAgain")));
  expect(judged.map((e) => [e.verdict, e.delta])).toEqual([
    ["improved", 0.075],
    ["regressed", -0.15],
    ["improved", 0.3],
    ["improved", 0.3],
    ["inconclusive", null],
    ["inconclusive", null],
  ]);
}
