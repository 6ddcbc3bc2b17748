import { codePointLength } from "../text";

/**
 * Description lint (docs/skills-and-listing.md#description-lint): deterministic checks of whether an agent will notice that a
 * skill applies. Findings come in the order of the spec's table.
 */

export const WHEN_CLAUSES = [
  "when to use",
  "use when",
  "use this when",
  "use for",
  "when the user",
  "when a ",
  "when an ",
  "whenever ",
  "before ",
  "after ",
] as const;

const FIRST_PERSON_WORDS = new Set(["i", "me", "my", "we", "our", "you", "your"]);

const BOILERPLATE_OPENERS = [
  "this skill",
  "this is",
  "the skill",
  "a skill",
  "skill for",
  "skill to",
  "use this skill to",
  "helps",
  "a tool",
] as const;

export type LintRuleId = "Empty" | "WhatAndWhen" | "ThirdPerson" | "FrontLoad" | "CutByListing";

export interface LintFinding {
  rule: LintRuleId;
  message: string;
}

export function lintDescription(description: string, descMax: number): LintFinding[] {
  if (description.trim() === "") return [{ rule: "Empty", message: "Description is empty." }];
  const findings: LintFinding[] = [];
  const folded = asciiLower(description);
  const whenAt = firstWhenClause(folded);
  if (whenAt === null) {
    findings.push({
      rule: "WhatAndWhen",
      message: "Say what it does AND when to use it (add a 'use when ...' clause)",
    });
  }
  const words = description.match(/\p{L}+/gu) ?? [];
  if (words.some((word) => FIRST_PERSON_WORDS.has(word.toLowerCase()))) {
    findings.push({
      rule: "ThirdPerson",
      message: 'Write in third person: "Finds root causes ...", not "I can help you ..."',
    });
  }
  const opening = folded.replace(/^\s+/, "");
  if (BOILERPLATE_OPENERS.some((opener) => opening.startsWith(opener))) {
    findings.push({
      rule: "FrontLoad",
      message: "Front-load the key terms: start with what it does, not a boilerplate opener",
    });
  }
  if (whenAt !== null && codePointLength(description) > descMax && whenAt >= descMax) {
    findings.push({
      rule: "CutByListing",
      message: `The 'when' clause starts after character ${descMax} and is cut from the listing: move it forward`,
    });
  }
  return findings;
}

export function formatLint(findings: LintFinding[]): string {
  if (findings.length === 0) return "[lint] clean";
  return findings.map((finding) => `[lint] ${finding.rule}: ${finding.message}`).join("\n");
}

/** Lower-cases A–Z only, so every index still points at the same code unit. */
function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

/** The code point index at which the first when clause starts, or null. */
function firstWhenClause(folded: string): number | null {
  let first = -1;
  for (const clause of WHEN_CLAUSES) {
    const at = folded.indexOf(clause);
    if (at !== -1 && (first === -1 || at < first)) first = at;
  }
  return first === -1 ? null : codePointLength(folded.slice(0, first));
}
