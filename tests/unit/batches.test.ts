import { describe, expect, it } from "vitest";
import { inSizedSlices, ROWS_PER_STATEMENT } from "@/db/batches";

describe("statement-sized slices", () => {
  it("cuts by payload as well as by rows, and sends a row larger than the cap alone", () => {
    const sizes = [3, 3, 3, 10, 1, 1];
    expect(inSizedSlices(sizes, (n) => n, 6)).toEqual([[3, 3], [3], [10], [1, 1]]);
  });

  it("never puts more rows in a statement than it takes", () => {
    const slices = inSizedSlices(
      Array.from({ length: ROWS_PER_STATEMENT * 2 + 1 }, () => 1),
      () => 1,
    );
    expect(slices.map((slice) => slice.length)).toEqual([ROWS_PER_STATEMENT, ROWS_PER_STATEMENT, 1]);
    expect(inSizedSlices([], () => 1)).toEqual([]);
  });
});
