import { describe, expect, it } from "vitest";
import { cutCsv } from "@/lib/listing/cut-csv";
import { cutPage } from "@/lib/listing/cut-pages";

describe("the budget page's lists of what was cut", () => {
  const entries = Array.from({ length: 120 }, (_, i) => ({ name: `skill-${String(i).padStart(3, "0")}` }));

  it("pages 50 at a time, each entry keeping its place in the whole list, a page past the end showing the last", () => {
    const second = cutPage(entries, "", 2);
    expect([second.rows.length, second.first, second.rows[0]?.position, second.pages]).toEqual([50, 51, 51, 3]);
    const past = cutPage(entries, "", 9);
    expect([past.page, past.first, past.rows.length]).toEqual([3, 101, 20]);
    const found = cutPage(entries, "skill-07", 1);
    expect(found.rows.map((item) => [item.entry.name, item.position])).toEqual([
      ["skill-070", 71],
      ["skill-071", 72],
      ["skill-072", 73],
      ["skill-073", 74],
      ["skill-074", 75],
      ["skill-075", 76],
      ["skill-076", 77],
      ["skill-077", 78],
      ["skill-078", 79],
      ["skill-079", 80],
    ]);
    expect([found.total, found.entries]).toEqual([10, 120]);
    expect(cutPage(entries, "nothing", 1)).toMatchObject({ rows: [], total: 0, first: 0, pages: 1 });
  });

  it("writes every entry as a CSV row with what it lost, quoted where it must be and never as a formula", () => {
    const csv = cutCsv({
      dropped: [{ name: "a", scope: "workspace", state: "dropped", description: 'Says "hi", twice' }],
      stripped: [{ name: "b", scope: "global", state: "stripped", description: "=HYPERLINK(1)" }],
      shortened: [{ name: "c", scope: "builtin", shown: "Use…", lost: "-the rest", lostUseWhen: false }],
    });
    expect(csv).toBe(
      'name,group,state,lost\r\na,workspace,dropped,"Says ""hi"", twice"\r\nb,global,stripped,\'=HYPERLINK(1)\r\nc,builtin,cut,\'-the rest\r\n',
    );
  });
});
