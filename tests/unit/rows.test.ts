import { describe, expect, it } from "vitest";
import { rowsOf } from "@/db/rows";

/** A raw statement's rows, as every driver answers them (`{ rows }`), and nothing else taken for them. */
describe("rowsOf", () => {
  it("reads the rows of a driver's result", () => {
    expect(rowsOf<{ n: number }>({ rows: [{ n: 1 }, { n: 2 }], fields: [] })).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it("refuses a result with no rows", () => {
    expect(() => rowsOf({ affectedRows: 1 })).toThrow("a raw statement's result has no rows");
    expect(() => rowsOf({ rows: "1" })).toThrow("a raw statement's result has no rows");
  });
});
