import { describe, expect, it } from "vitest";
import { z } from "zod";
import { readQuery } from "@/lib/http/params";
import { AppError } from "@/lib/errors";

const schema = z.object({ version: z.coerce.number().int().min(1).optional(), q: z.string().optional() });
const query = (url: string) => readQuery(new Request(url), schema);

describe("readQuery", () => {
  it("reads the query string's parameters, decoded, and nothing of the path or fragment", () => {
    expect(query("http://x/api/v1/skills/a")).toEqual({});
    expect(query("http://x/api/v1/skills/a?version=3")).toEqual({ version: 3 });
    expect(query("http://x/api/v1/skills/a?q=two%20words&other=1")).toEqual({ q: "two words" });
    expect(query("http://x/p?q=a+b#frag?version=2")).toEqual({ q: "a b" });
  });

  it("refuses a bad value and a NUL character with InvalidQuery", () => {
    expect(() => query("http://x/p?version=0")).toThrow(AppError);
    expect(() => query("http://x/p?q=a%00b")).toThrow('field "q": holds a NUL character (%00); remove it');
  });
});
