import { describe, expect, it } from "vitest";
import { composeSkillMd, declaredVersion, parseSkillMd, splitSkillMd } from "@/lib/skills/skill-md";

describe("SKILL.md parsing (§2.1)", () => {
  it("splits frontmatter from the body at the newline that ends the closing line", () => {
    expect(splitSkillMd("---\nname: a\n---\nbody\n")).toEqual({ frontmatter: "---\nname: a\n---\n", yaml: "name: a", body: "body\n" });
    expect(splitSkillMd("---\r\nname: a\r\n---\r\n\r\nbody")?.body).toBe("\r\nbody");
    expect(splitSkillMd("---\nname: a\n---")?.body).toBe("");
    expect(splitSkillMd("---\nname: a\n---x\n---\nrest")?.body).toBe("rest");
    expect(splitSkillMd("no frontmatter")).toBeNull();
    expect(splitSkillMd("---\nname: a\nnever closed\n")).toBeNull();
  });

  it("keeps unknown fields and warns about each in the exact form", () => {
    const parsed = parseSkillMd("---\nname: a\ndescription: d\ndisable-model-invocation: true\nargument-hint: x\n---\nb");
    expect(parsed.warnings).toEqual([
      '[warning] a: frontmatter field "disable-model-invocation" is not in the Agent Skills spec (kept)',
      '[warning] a: frontmatter field "argument-hint" is not in the Agent Skills spec (kept)',
    ]);
    expect(parsed.frontmatter).toBe("---\nname: a\ndescription: d\ndisable-model-invocation: true\nargument-hint: x\n---\n");
  });

  it.each([
    ["---\ndescription: d\n---\n", "invalid skill: name is required in the frontmatter of SKILL.md"],
    ["---\nname: 12\ndescription: d\n---\n", "invalid skill: name in SKILL.md must be a string (quote it)"],
    ["---\nname: ''\ndescription: d\n---\n", 'invalid skill: name "" must be 1–64 characters long (it has 0)'],
    [
      `---\nname: ${"a".repeat(65)}\ndescription: d\n---\n`,
      `invalid skill: name "${"a".repeat(65)}" must be 1–64 characters long (it has 65)`,
    ],
    ["---\nname: a-\ndescription: d\n---\n", 'invalid skill: name "a-" may not start or end with a hyphen'],
    ["---\nname: a--b\ndescription: d\n---\n", 'invalid skill: name "a--b" may not hold two hyphens in a row'],
    ["---\nname: a\n---\n", 'invalid skill: description of "a" is required'],
    ["---\nname: a\ndescription: [1]\n---\n", 'invalid skill: description of "a" must be a string'],
    ["---\nname: a\ndescription: d\nlicense: 3\n---\n", 'invalid skill: license of "a" must be a string'],
    ["---\nname: a\ndescription: d\nmetadata: [x]\n---\n", 'invalid skill: metadata of "a" must be a map of string to string'],
    ["---\nname: a\ndescription: d\nallowed-tools: 5\n---\n", 'invalid skill: allowed-tools of "a" must be a string or a list of strings'],
    ["---\n- a\n- b\n---\n", "invalid skill: the frontmatter of SKILL.md must be a YAML mapping with name and description"],
    [
      "---\nname: a\nname: b\ndescription: d\n---\n",
      "invalid skill: the frontmatter of SKILL.md is not valid YAML: Map keys must be unique",
    ],
    ['---\nname: a\ndescription: "d\u0000"\n---\n', "invalid skill: SKILL.md holds a NUL character; SKILL.md must be text"],
  ])("refuses %j", (text, message) => {
    expect(() => parseSkillMd(text)).toThrow(message);
  });

  it("counts description length in code points", () => {
    expect(() => parseSkillMd(`---\nname: a\ndescription: "${"😀".repeat(1024)}"\n---\n`)).not.toThrow();
    expect(() => parseSkillMd(`---\nname: a\ndescription: "${"😀".repeat(1025)}"\n---\n`)).toThrow(
      'invalid skill: description of "a" is 1025 characters; the limit is 1024',
    );
  });

  it("reads the declared version of built-in and global skills", () => {
    expect(declaredVersion({ version: "3" })).toBe(3);
    expect(declaredVersion({ version: "v7" })).toBe(7);
    expect(declaredVersion({ version: "1.2" })).toBe(1);
    expect(declaredVersion({})).toBe(1);
  });

  it("writes a learned skill's SKILL.md that parses back to the same fields and body", () => {
    for (const description of [
      "plain",
      "has: colon",
      "  leading spaces",
      "quote \" and ' both",
      "multi\nline",
      "#hash",
      "- dash",
      "null",
      "123",
    ]) {
      const text = composeSkillMd({ name: "x", description }, "body  \r\n");
      const parsed = parseSkillMd(text);
      expect(parsed.description).toBe(description);
      expect(parsed.body).toBe("body  \r\n");
    }
  });
});
