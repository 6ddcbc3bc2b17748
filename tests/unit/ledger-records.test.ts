import { describe, expect, it } from "vitest";
import { formatLedger, openPredictions, type LedgerRecord } from "@/lib/ledger/records";
import { buildTimeline } from "@/lib/ledger/timeline";

const at = new Date("2026-11-02T10:00:00Z");
const rec = (id: string, fields: Partial<LedgerRecord>): LedgerRecord => ({
  id,
  kind: "hypothesis",
  ref: null,
  text: null,
  falsifiedBy: null,
  verdict: null,
  evidence: null,
  reason: null,
  createdAt: at,
  ...fields,
});

const records = [
  rec("H1", { kind: "hypothesis", text: "h one" }),
  rec("P1", { kind: "prediction", ref: "H1", text: "p one", falsifiedBy: "cmd1" }),
  rec("O1", { kind: "observation", text: "saw\r\nthis" }),
  rec("P2", { kind: "prediction", ref: "H1", text: "p two", falsifiedBy: "cmd2" }),
  rec("V1", { kind: "verdict", ref: "P1", verdict: "refuted", evidence: "out" }),
  rec("H2", { kind: "hypothesis", text: "h two" }),
  rec("P3", { kind: "prediction", ref: "H2", text: "p three", falsifiedBy: "cmd3" }),
  rec("S1", { kind: "skip", ref: "P3", reason: "moot" }),
  rec("C1", { kind: "conclusion", text: "done" }),
];

describe("ledger records", () => {
  it("counts a prediction open until it has a verdict or a skip", () => {
    expect(openPredictions(records).map((r) => r.id)).toEqual(["P2"]);
  });

  it("writes the list text with the header and one line per record", () => {
    expect(formatLedger("plan", records)).toBe(
      [
        "[experiment] sci.plan/ledger: 9 record(s), 1 open prediction(s)",
        "H1 hypothesis: h one",
        "P1 prediction (H1): p one | falsifiedBy: cmd1",
        "O1 observation: saw\\nthis",
        "P2 prediction (H1): p two | falsifiedBy: cmd2 [open]",
        "V1 verdict (P1): refuted | evidence: out",
        "H2 hypothesis: h two",
        "P3 prediction (H2): p three | falsifiedBy: cmd3",
        "S1 skip (P3): skipped | reason: moot",
        "C1 conclusion: done",
      ].join("\n"),
    );
  });

  it("nests predictions and their judgements under hypotheses, in the order written", () => {
    const timeline = buildTimeline(records);
    expect(timeline.map((item) => item.record.id)).toEqual(["H1", "O1", "H2", "C1"]);
    const h1 = timeline[0]!;
    expect(h1.kind === "hypothesis" && h1.predictions.map((p) => [p.prediction.id, p.judgement?.id ?? null, p.open])).toEqual([
      ["P1", "V1", false],
      ["P2", null, true],
    ]);
  });
});

describe("the finishing-a-branch skill", () => {
  it("tells the agent how to call the gate and what to do with each open prediction", async () => {
    const { readFileSync } = await import("node:fs");
    const body = readFileSync("skills/finishing-a-branch/SKILL.md", "utf8");
    for (const needle of [
      '"$SKILLGATE_URL/api/v1/ledger/<slug>/gate"',
      '"code": "OpenPredictions"',
      '"action": "record-verdict"',
      '"action": "record-skip"',
      "Run its `falsifiedBy` command exactly as written",
      "Never record a verdict without running the command",
    ]) {
      expect(body).toContain(needle);
    }
  });
});
