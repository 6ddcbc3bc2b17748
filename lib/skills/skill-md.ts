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
  metadata: Record<string, string>;
  /** Every frontmatter field as parsed, spec fields and others. */
  fields: Record<string, unknown>;
  /** `[warning] …` diagnostics: fields outside the spec, kept as they are. */
  warnings: string[];
}

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
 * Parses and validates a SKILL.md (§2.1). Throws `InvalidSkill` naming the field and the rule.
 * `folder` is the folder name a file skill came from; its name must equal it.
 */
export function parseSkillMd(text: string, folder?: string): ParsedSkill {
  const where = folder ? `${folder}/SKILL.md` : "SKILL.md";
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > SKILL_MD_MAX_BYTES) {
    throw invalidSkill(`${where} is ${bytes} bytes; the limit is ${SKILL_MD_MAX_BYTES} bytes (256 KiB)`);
  }
  if (text.includes("\u0000")) throw invalidSkill(`${where} holds a NUL character; SKILL.md must be text`);
  const split = splitSkillMd(text);
  if (!split) {
    throw invalidSkill(
      `${where} must start with YAML frontmatter between two "---" lines (name and description), then the body`,
    );
  }
  const fields = parseFrontmatter(split.yaml, where);
  const name = requireName(fields.name, where, folder);
  const description = requireDescription(fields.description, name);
  checkOptionalFields(fields, name);
  const warnings = Object.keys(fields)
    .filter((field) => !SPEC_FIELDS.has(field))
    .map((field) => `[warning] ${name}: frontmatter field "${field}" is not in the Agent Skills spec (kept)`);
  const metadata = (fields.metadata ?? {}) as Record<string, string>;
  return { name, description, frontmatter: split.frontmatter, body: split.body, metadata, fields, warnings };
}

function parseFrontmatter(yaml: string, where: string): Record<string, unknown> {
  const doc = parseDocument(yaml, { uniqueKeys: true, prettyErrors: false });
  const firstError = doc.errors[0];
  if (firstError) {
    const reason = firstError.message.split("\n")[0];
    throw invalidSkill(`the frontmatter of ${where} is not valid YAML: ${reason}`);
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (error) {
    // The yaml library refuses alias expansion past the count ("billion laughs"), with a ReferenceError.
    const reason = (error as Error).message.split("\n")[0];
    throw invalidSkill(`the frontmatter of ${where} cannot be read: ${reason}; write the values out instead of repeating aliases`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw invalidSkill(`the frontmatter of ${where} must be a YAML mapping with name and description`);
  }
  return value as Record<string, unknown>;
}

function requireName(value: unknown, where: string, folder?: string): SkillName {
  if (value === undefined || value === null) throw invalidSkill(`name is required in the frontmatter of ${where}`);
  if (typeof value !== "string") throw invalidSkill(`name in ${where} must be a string (quote it)`);
  const problem = skillNameProblem(value);
  if (problem) throw invalidSkill(problem);
  if (folder !== undefined && value !== folder) {
    throw invalidSkill(`name "${value}" must equal its folder name "${folder}"`);
  }
  return value as SkillName;
}

function requireDescription(value: unknown, name: string): string {
  if (value === undefined || value === null) throw invalidSkill(`description of "${name}" is required`);
  if (typeof value !== "string") throw invalidSkill(`description of "${name}" must be a string`);
  if (value.trim() === "") throw invalidSkill(`description of "${name}" is empty; write 1–1024 characters`);
  const length = codePointLength(value);
  if (length > 1024) {
    throw invalidSkill(`description of "${name}" is ${length} characters; the limit is 1024`);
  }
  return value;
}

function checkOptionalFields(fields: Record<string, unknown>, name: string): void {
  const { license, compatibility, metadata } = fields;
  const allowedTools = fields["allowed-tools"];
  if (license !== undefined && typeof license !== "string") {
    throw invalidSkill(`license of "${name}" must be a string`);
  }
  if (compatibility !== undefined) {
    if (typeof compatibility !== "string") throw invalidSkill(`compatibility of "${name}" must be a string`);
    const length = codePointLength(compatibility);
    if (length > 500) {
      throw invalidSkill(`compatibility of "${name}" is ${length} characters; the limit is 500`);
    }
  }
  if (metadata !== undefined) checkMetadata(metadata, name);
  if (allowedTools !== undefined) {
    const ok =
      typeof allowedTools === "string" ||
      (Array.isArray(allowedTools) && allowedTools.every((tool) => typeof tool === "string"));
    if (!ok) throw invalidSkill(`allowed-tools of "${name}" must be a string or a list of strings`);
  }
}

function checkMetadata(metadata: unknown, name: string): void {
  if (metadata === null || typeof metadata !== "object" || Array.isArray(metadata)) {
    throw invalidSkill(`metadata of "${name}" must be a map of string to string`);
  }
  for (const [key, value] of Object.entries(metadata)) {
    if (typeof value !== "string") {
      throw invalidSkill(`metadata.${key} of "${name}" must be a string (quote the value)`);
    }
  }
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
