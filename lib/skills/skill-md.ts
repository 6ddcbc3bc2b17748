import { parseDocument, stringify } from "yaml";
import { invalidSkill } from "../errors";
import { codePointLength } from "../text";
import { skillNameProblem, type SkillName } from "./name";

/** The fields the Agent Skills specification defines; anything else is kept and warned about. */
const SPEC_FIELDS = new Set(["name", "description", "license", "compatibility", "metadata", "allowed-tools"]);

export const SKILL_MD_MAX_BYTES = 256 * 1024;
/** A frontmatter has a handful of fields; more alias expansions than this is an attack, not a skill. */
const MAX_YAML_ALIASES = 100;

export interface ParsedSkill {
  name: SkillName;
  description: string;
  /** Everything up to and including the newline that ends the closing `---` line. */
  frontmatter: string;
  /** Everything after it, byte for byte. */
  body: string;
  /** `metadata` with every value a string: values of other types are turned into strings (docs/skills-and-listing.md#validation). */
  metadata: Record<string, string>;
  /** Every frontmatter field as parsed, spec fields and others. */
  fields: Record<string, unknown>;
  /** `[warning] <name>: …` diagnostics, one per soft rule this SKILL.md breaks; the skill is kept and served. */
  warnings: string[];
  /** The same breaches as refusals: a learned write is held to the soft rules too (docs/skills-and-listing.md#validation). */
  softBreaches: string[];
}

/** A SKILL.md read under the hard rules: the skill, or every hard rule it breaks. */
export type SkillMdReading = { skill: ParsedSkill; errors: [] } | { skill: null; errors: [string, ...string[]] };

interface SplitSkillMd {
  frontmatter: string;
  yaml: string;
  body: string;
}

const OPENING = /^(\uFEFF)?---[ \t]*(\r\n|\n|\r)/;

/** Splits a SKILL.md into its frontmatter block and its body without touching a byte. */
export function splitSkillMd(text: string): SplitSkillMd | null {
  const opening = OPENING.exec(text);
  if (!opening) return null;
  const closing = /(^|\r\n|\n|\r)---[ \t]*(\r\n|\n|\r|$)/g;
  closing.lastIndex = opening[0].length - 1;
  for (let match = closing.exec(text); match; match = closing.exec(text)) {
    // The closing line must start after the opening line's own newline.
    const [, lineBreak = ""] = match;
    const lineStart = match.index + lineBreak.length;
    if (lineStart < opening[0].length) continue;
    const end = match.index + match[0].length;
    return { frontmatter: text.slice(0, end), yaml: text.slice(opening[0].length, match.index), body: text.slice(end) };
  }
  return null;
}

/**
 * Reads a SKILL.md under the hard rules of docs/skills-and-listing.md#validation and reports every one it breaks, not only the
 * first: a team fixing a synced tree sees all of it at once. Soft rules become warnings.
 * `folder` is the folder name a file skill came from; its name must equal it.
 */
export function readSkillMd(text: string, folder?: string): SkillMdReading {
  const where = folder ? `${folder}/SKILL.md` : "SKILL.md";
  const fail = (...errors: [string, ...string[]]): SkillMdReading => ({ skill: null, errors });
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > SKILL_MD_MAX_BYTES) return fail(`${where} is ${bytes} bytes; the limit is ${SKILL_MD_MAX_BYTES} bytes (256 KiB)`);
  if (text.includes("\u0000")) return fail(`${where} holds a NUL character; SKILL.md must be text`);
  const split = splitSkillMd(text);
  if (!split) {
    return fail(
      OPENING.test(text)
        ? `the frontmatter of ${where} is never closed: end it with a "---" line before the body`
        : `${where} must start with YAML frontmatter between two "---" lines (name and description), then the body`,
    );
  }
  const read = parseFrontmatter(split.yaml, where);
  if (typeof read === "string") return fail(read);
  const fields = read;
  const label = typeof fields.name === "string" ? fields.name : (folder ?? "");
  const errors = [nameProblem(fields.name, where, folder), descriptionProblem(fields.description, label)].filter(
    (problem) => problem !== null,
  );
  if (errors.length > 0) return { skill: null, errors: errors as [string, ...string[]] };
  const name = fields.name as SkillName;
  const description = fields.description as string;
  const breaches = softBreaches(fields, name);
  return {
    skill: {
      name,
      description,
      frontmatter: split.frontmatter,
      body: split.body,
      metadata: stringMetadata(fields.metadata),
      fields,
      warnings: breaches.map((breach) => `[warning] ${name}: ${breach.warning}`),
      softBreaches: breaches.map((breach) => breach.refusal),
    },
    errors: [],
  };
}

/** A SKILL.md that must be usable (a skill read back from storage, a file skill): the first hard error throws `InvalidSkill`. */
export function parseSkillMd(text: string, folder?: string): ParsedSkill {
  const reading = readSkillMd(text, folder);
  if (reading.skill === null) throw invalidSkill(reading.errors[0]);
  return reading.skill;
}

/**
 * A learned skill's SKILL.md: held to every rule, soft ones included (docs/skills-and-listing.md#validation). An edit is held to
 * what it writes: a breach the current version already had (a field kept from before this rule)
 * does not block changing the body; a new or worse one is refused.
 */
export function parseLearnedSkillMd(text: string, current?: ParsedSkill): ParsedSkill {
  const skill = parseSkillMd(text);
  const breach = skill.softBreaches.find((refusal) => !current?.softBreaches.includes(refusal));
  if (breach !== undefined) throw invalidSkill(breach);
  return skill;
}

/** The frontmatter's fields, or why they cannot be read. */
function parseFrontmatter(yaml: string, where: string): Record<string, unknown> | string {
  const doc = parseDocument(yaml, { uniqueKeys: true, prettyErrors: false });
  const firstError = doc.errors[0];
  if (firstError) return `the frontmatter of ${where} is not valid YAML: ${firstError.message.split("\n")[0]}`;
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (error) {
    // The yaml library refuses alias expansion past the count ("billion laughs"), with a ReferenceError.
    const reason = (error as Error).message.split("\n")[0];
    return `the frontmatter of ${where} cannot be read: ${reason}; write the values out instead of repeating aliases`;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return `the frontmatter of ${where} must be a YAML mapping with name and description`;
  }
  return value as Record<string, unknown>;
}

function nameProblem(value: unknown, where: string, folder?: string): string | null {
  if (value === undefined || value === null) return `name is required in the frontmatter of ${where}`;
  if (typeof value !== "string") return `name in ${where} must be a string (quote it)`;
  const problem = skillNameProblem(value);
  if (problem) return problem;
  if (folder !== undefined && value !== folder) return `name "${value}" must equal its folder name "${folder}"`;
  return null;
}

function descriptionProblem(value: unknown, name: string): string | null {
  if (value === undefined || value === null) return `description of "${name}" is required`;
  if (typeof value !== "string") return `description of "${name}" must be a string`;
  if (value.trim() === "") return `description of "${name}" is empty; write 1–1024 characters`;
  return null;
}

/** A soft rule broken: how a sync warns about it, and how a learned write refuses it. */
interface SoftBreach {
  warning: string;
  refusal: string;
}

function softBreaches(fields: Record<string, unknown>, name: string): SoftBreach[] {
  const breaches: SoftBreach[] = [];
  const { description, license, compatibility, metadata } = fields;
  const allowedTools = fields["allowed-tools"];
  const descriptionLength = codePointLength(description as string);
  if (descriptionLength > 1024) {
    breaches.push({
      warning: `description is ${descriptionLength} characters; the Agent Skills spec allows 1024 (kept)`,
      refusal: `description of "${name}" is ${descriptionLength} characters; the limit is 1024`,
    });
  }
  if (license !== undefined && typeof license !== "string") {
    breaches.push({ warning: "license is not a string (kept)", refusal: `license of "${name}" must be a string` });
  }
  if (compatibility !== undefined && typeof compatibility !== "string") {
    breaches.push({ warning: "compatibility is not a string (kept)", refusal: `compatibility of "${name}" must be a string` });
  } else if (typeof compatibility === "string" && codePointLength(compatibility) > 500) {
    const length = codePointLength(compatibility);
    breaches.push({
      warning: `compatibility is ${length} characters; the Agent Skills spec allows 500 (kept)`,
      refusal: `compatibility of "${name}" is ${length} characters; the limit is 500`,
    });
  }
  if (metadata !== undefined) breaches.push(...metadataBreaches(metadata, name));
  if (allowedTools !== undefined && !isStringOrStrings(allowedTools)) {
    breaches.push({
      warning: "allowed-tools is not a string or a list of strings (kept)",
      refusal: `allowed-tools of "${name}" must be a string or a list of strings`,
    });
  }
  for (const field of Object.keys(fields).filter((key) => !SPEC_FIELDS.has(key))) {
    breaches.push({
      warning: `frontmatter field "${field}" is not in the Agent Skills spec (kept)`,
      refusal: `frontmatter field "${field}" is not in the Agent Skills spec; a learned skill holds only ${[...SPEC_FIELDS].join(", ")}`,
    });
  }
  return breaches;
}

function metadataBreaches(metadata: unknown, name: string): SoftBreach[] {
  if (!isMap(metadata)) {
    return [
      {
        warning: "metadata is not a map of string to string (ignored)",
        refusal: `metadata of "${name}" must be a map of string to string`,
      },
    ];
  }
  return Object.entries(metadata)
    .filter(([, value]) => typeof value !== "string")
    .map(([key, value]) => ({
      warning: `metadata.${key} is not a string; read as ${JSON.stringify(metadataString(value))}`,
      refusal: `metadata.${key} of "${name}" must be a string (quote the value)`,
    }));
}

function isMap(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function isStringOrStrings(value: unknown): boolean {
  return typeof value === "string" || (Array.isArray(value) && value.every((item) => typeof item === "string"));
}

/** `metadata` as a map of string to string, as the Agent Skills reference library reads it; not a map reads as none. */
function stringMetadata(metadata: unknown): Record<string, string> {
  if (!isMap(metadata)) return {};
  return Object.fromEntries(Object.entries(metadata).map(([key, value]) => [key, metadataString(value)]));
}

/** Scalars as YAML writes them (`true`, `3`); lists and maps as JSON; null as the empty string. */
function metadataString(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object") return JSON.stringify(value);
  return String(value as number | boolean | bigint);
}

/** The version a built-in or global skill declares in `metadata.version` ("3" or "v3"), else 1. */
export function declaredVersion(metadata: Record<string, string>): number {
  const match = /^v?(\d{1,9})$/.exec(metadata.version ?? "");
  const version = match ? Number(match[1]) : 1;
  return version >= 1 ? version : 1;
}

/**
 * The canonical SKILL.md of a learned skill: frontmatter written from its fields in a fixed
 * order (name, description, then the rest as given), then the body byte for byte. Writing the
 * same fields always gives the same bytes, which is what makes export and import exact.
 */
export function composeSkillMd(fields: Record<string, unknown> & { name: string; description: string }, body: string): string {
  const { name, description, ...rest } = fields;
  const ordered = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
  if (ordered.metadata && Object.keys(ordered.metadata as object).length === 0) delete ordered.metadata;
  const yaml = stringify({ name, description, ...ordered }, { lineWidth: 0 });
  return `---\n${yaml}---\n${body}`;
}
