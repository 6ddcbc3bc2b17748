import { describe, expect, it } from "vitest";
import { composeSkillMd, declaredVersion, parseLearnedSkillMd, parseSkillMd, readSkillMd, splitSkillMd } from "@/lib/skills/skill-md";

describe("SKILL.md parsing (docs/skills-and-listing.md#validation)", () => {
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
    ["---\n- a\n- b\n---\n", "invalid skill: the frontmatter of SKILL.md must be a YAML mapping with name and description"],
    [
      "---\nname: a\nname: b\ndescription: d\n---\n",
      "invalid skill: the frontmatter of SKILL.md is not valid YAML: Map keys must be unique",
    ],
    ['---\nname: a\ndescription: "d\u0000"\n---\n', "invalid skill: SKILL.md holds a NUL character; SKILL.md must be text"],
  ])("refuses %j", (text, message) => {
    expect(() => parseSkillMd(text)).toThrow(message);
  });

  it("reports every hard rule a SKILL.md breaks at once, in order", () => {
    expect(readSkillMd("---\nname: My_Skill\n---\nbody", "my-skill")).toEqual({
      skill: null,
      errors: ['name "My_Skill" may hold only lowercase letters, digits and hyphens', 'description of "My_Skill" is required'],
    });
    expect(readSkillMd("---\ndescription: ''\n---\n", "x").errors).toEqual([
      "name is required in the frontmatter of x/SKILL.md",
      'description of "x" is empty; write 1–1024 characters',
    ]);
  });

  it("tells an unclosed frontmatter from a missing one", () => {
    expect(readSkillMd("---\nname: a\ndescription: d\n# Body without the closing line\n", "a").errors).toEqual([
      'the frontmatter of a/SKILL.md is never closed: end it with a "---" line before the body',
    ]);
    expect(readSkillMd("# Just a body\n", "a").errors).toEqual([
      'a/SKILL.md must start with YAML frontmatter between two "---" lines (name and description), then the body',
    ]);
  });

  // Each soft rule: how a sync warns (the skill is kept and served) and how a learned write refuses.
  it.each([
    [
      `description: "${"😀".repeat(1025)}"`,
      "[warning] a: description is 1025 characters; the Agent Skills spec allows 1024 (kept)",
      'invalid skill: description of "a" is 1025 characters; the limit is 1024',
    ],
    [
      `description: d\ncompatibility: ${"c".repeat(501)}`,
      "[warning] a: compatibility is 501 characters; the Agent Skills spec allows 500 (kept)",
      'invalid skill: compatibility of "a" is 501 characters; the limit is 500',
    ],
    ["description: d\nlicense: 3", "[warning] a: license is not a string (kept)", 'invalid skill: license of "a" must be a string'],
    [
      "description: d\nmetadata: [x]",
      "[warning] a: metadata is not a map of string to string (ignored)",
      'invalid skill: metadata of "a" must be a map of string to string',
    ],
    [
      "description: d\nmetadata:\n  internal: true",
      '[warning] a: metadata.internal is not a string; read as "true"',
      'invalid skill: metadata.internal of "a" must be a string (quote the value)',
    ],
    [
      "description: d\nallowed-tools: 5",
      "[warning] a: allowed-tools is not a string or a list of strings (kept)",
      'invalid skill: allowed-tools of "a" must be a string or a list of strings',
    ],
    [
      "description: d\nargument-hint: x",
      '[warning] a: frontmatter field "argument-hint" is not in the Agent Skills spec (kept)',
      'invalid skill: frontmatter field "argument-hint" is not in the Agent Skills spec; a learned skill holds only name, description, license, compatibility, metadata, allowed-tools',
    ],
  ])("warns about a soft rule and refuses it for a learned skill: %s", (fields, warning, refusal) => {
    const text = `---\nname: a\n${fields}\n---\nbody`;
    expect(parseSkillMd(text).warnings).toEqual([warning]);
    expect(() => parseLearnedSkillMd(text)).toThrow(refusal);
  });

  it("holds an edit of a learned skill to what it writes, not to a breach its current version already had", () => {
    const current = parseSkillMd("---\nname: a\ndescription: d\nargument-hint: x\n---\nv1\n");
    expect(parseLearnedSkillMd("---\nname: a\ndescription: d2\nargument-hint: x\n---\nv2\n", current).body).toBe("v2\n");
    expect(() => parseLearnedSkillMd(`---\nname: a\ndescription: ${"d".repeat(1025)}\nargument-hint: x\n---\nv2\n`, current)).toThrow(
      'invalid skill: description of "a" is 1025 characters; the limit is 1024',
    );
    expect(() => parseLearnedSkillMd("---\nname: a\ndescription: d2\nargument-hint: x\n---\nv2\n")).toThrow(
      'invalid skill: frontmatter field "argument-hint" is not in the Agent Skills spec',
    );
  });

  it("counts description length in code points", () => {
    expect(parseLearnedSkillMd(`---\nname: a\ndescription: "${"😀".repeat(1024)}"\n---\n`).warnings).toEqual([]);
    expect(parseSkillMd(`---\nname: a\ndescription: "${"😀".repeat(1025)}"\n---\n`).warnings).toHaveLength(1);
  });

  it("turns metadata values into strings, as the Agent Skills reference library does", () => {
    const parsed = parseSkillMd(
      "---\nname: a\ndescription: d\nmetadata:\n  internal: true\n  version: 2\n  tags: [x, y]\n  none: null\n---\n",
    );
    expect(parsed.metadata).toEqual({ internal: "true", version: "2", tags: '["x","y"]', none: "" });
    expect(declaredVersion(parsed.metadata)).toBe(2);
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
