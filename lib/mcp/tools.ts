import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { App } from "../contracts/app";
import type { KeyAuth } from "../auth/api-keys";
import { requireScope, type Scope } from "../auth/scopes";
import { observationBody } from "../contracts/evolution";
import { versionNumber } from "../contracts/fields";
import { skillNameParam } from "../skills/name-schema";
import { ledgerBody, ledgerSlugParam } from "../ledger/input";
import { lintBody } from "../contracts/lint";
import { FULL_CATALOG } from "../contracts/listing";
import { labelParam } from "../skills/label";
import { createSkillBody, updateSkillBody } from "../contracts/learned";
import { AppError } from "../errors";
import { INTERNAL_ERROR, knownError } from "../http/respond";
import { answerOrLast, secondsFromMemory, type Keeping } from "../http/pipeline";
import type { AnswerStore } from "../answer-store";
import type { StaleKeyAuth } from "../auth/key-cache";
import { logUnexpected } from "../log";
import { recordObservations } from "../evolution/observations";
import { parseWith } from "../validation";
import type { Actor } from "../learned/actor";
import { archiveLearned, createLearned, promoteLearned, updateLearned } from "../learned/write";
import { appendRecord, readLedger } from "../ledger/append";
import { formatLedger, ledgerKey, recordJson } from "../ledger/records";
import { formatLint, lintDescription } from "../lint/lint";
import { lintSkill } from "../lint/lint-skill";
import { contentTypeOf } from "../skills/content-types";
import { readSkillFile } from "../skills/files";
import { parseSkillName } from "../skills/name";
import { parseAnnotationLine, skillViewText, viewSkill } from "../skills/view";
import { decodeUtf8 } from "../text";

/**
 * The MCP tools of docs/mcp.md#tools, built from the REST contracts: each tool's input schema is made of the
 * contract's fields, and each call is checked with the very schema the REST route uses, so an
 * answer — refusals included — is the string the REST route gives for the same request: its text
 * body, its JSON body as serialized, or its error's `message`.
 */

export interface McpCall {
  app: App;
  /** The key of this request: re-read on every request, so revocation and catalog changes apply at once. */
  auth: () => StaleKeyAuth;
  sessionId: () => string | null;
}

type KeyActor = Actor & { kind: "key" };
type ToolContent = CallToolResult["content"];

interface ToolDefinition<S extends z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: S;
  annotations: NonNullable<Tool["annotations"]>;
  /**
   * The scope a call needs, from its arguments as sent (lint only reads): checked before the
   * arguments are, as REST checks the key before the body.
   */
  scope: (args: unknown) => Scope;
  /** A text answer, one with facts beside it in `_meta`, or content of other kinds (a binary file as an embedded resource). */
  run: (args: z.infer<S>, context: ToolContext) => Promise<string | TextWithMeta | ToolContent>;
  /**
   * What agents read (docs/outages.md#stale-answers): while the database is away, the last answer to the same call, marked
   * stale in `_meta`; `whenStale` does what the fresh answer would have done besides answering.
   */
  servesStale?: { whenStale?: (args: z.infer<S>, context: ToolContext, kept: CallToolResult) => void };
}

interface ToolContext {
  app: App;
  auth: KeyAuth;
  actor: KeyActor;
  sessionId: string | null;
}

/** A text answer and what it is, for a client that reads more than the text: the version skill_view served and why (docs/learned-skills.md#one-served-version). */
interface TextWithMeta {
  text: string;
  meta: Record<string, unknown>;
}

/** The `_meta` key of the version a reader got and why (docs/learned-skills.md#one-served-version): `{version, why, label?}`, as REST's X-Skill-Served-Why says. */
export const SERVED_META = "skillgate/served";
/** The `_meta` key that says a result comes from memory, as REST's X-Skillgate-Stale: seconds since the database confirmed it. */
const STALE_META = "skillgate/stale";

const tool = <S extends z.ZodObject>(definition: ToolDefinition<S>) => definition;
const json = (value: unknown) => JSON.stringify(value);

const MANAGE_ACTIONS = ["create", "update", "delete", "promote", "lint"] as const;

/**
 * Every field of the create and update bodies (a field added there appears here), each optional:
 * which ones an action needs is checked by that action's REST schema. The session is the MCP session's.
 */
const manageInput = z.strictObject({
  action: z.enum(MANAGE_ACTIONS).describe("create, update, delete, promote or lint"),
  ...createSkillBody.omit({ sessionId: true }).partial().shape,
  ...updateSkillBody.partial().shape,
});
type ManageArgs = z.infer<typeof manageInput>;

/** The arguments an operation's body takes, so its REST schema refuses exactly as the route does. */
function bodyOf(schema: z.ZodObject, args: ManageArgs): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([key, value]) => key in schema.shape && value !== undefined));
}

async function manage(args: ManageArgs, { app, auth, actor }: { app: App; auth: KeyAuth; actor: KeyActor }): Promise<string> {
  const teamId = auth.team.id;
  if (args.action === "lint") {
    if (args.description !== undefined)
      return formatLint(
        lintDescription(parseWith(lintBody, { description: args.description }, "InvalidField").description, auth.team.descMax),
      );
    return lintSkill(app.catalogs, auth.team, skillName(args.name));
  }
  switch (args.action) {
    case "create": {
      const input = parseWith(createSkillBody, bodyOf(createSkillBody, args), "InvalidField");
      return json(await createLearned(app, teamId, actor, input));
    }
    case "update": {
      const name = skillName(args.name);
      const body = parseWith(updateSkillBody, bodyOf(updateSkillBody, args), "InvalidField");
      if (body.expectedVersion === undefined)
        throw new AppError("InvalidField", "send expectedVersion: the version this change was made against");
      return json(
        await updateLearned(app, teamId, actor, name, {
          description: body.description,
          body: body.body,
          reason: body.reason,
          expected: { version: body.expectedVersion },
        }),
      );
    }
    case "delete":
      return json(await archiveLearned(app, teamId, actor, skillName(args.name)));
    case "promote":
      return json(await promoteLearned(app, teamId, actor, skillName(args.name)));
  }
}

/** A name as REST reads it from the URL: the same refusal for a bad one, and a clear one for none. */
function skillName(name: string | undefined) {
  if (name === undefined) throw new AppError("InvalidField", 'field "name": send the skill\'s name');
  return parseSkillName(name);
}

const TOOLS = [
  tool({
    name: "skill_list",
    title: "List skills",
    description:
      "The team's full skill catalog: every skill you may load, grouped by source, each with its whole description (the listing in your system prompt may cut them). Prefer a matching skill over improvising; load one with skill_view. `label` lists the versions with that label.",
    input: z.strictObject({
      label: labelParam.optional().describe("list the version with this label (e.g. staging) where a skill has it"),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    scope: () => "read",
    run: async ({ label }, { app, auth: { team } }) => {
      const key = { ...team, label: label ?? null };
      const { text } = await app.catalogs.listing(key, { ...FULL_CATALOG, loadHint: team.loadHint });
      if (!label) return text;
      // The text cannot say which skills the label served: `_meta` does, by name and version; the others got their default.
      const labelled = (await app.catalogs.catalog(key)).active.filter((skill) => skill.label).map((skill) => [skill.name, skill.version]);
      return { text, meta: { [SERVED_META]: { label, labelled: Object.fromEntries(labelled) } } };
    },
    servesStale: {},
  }),
  tool({
    name: "skill_view",
    title: "Load a skill",
    description:
      "Loads the full body of a skill by name, byte for byte, after a header line [skill <name> | <source> | v<N>]. Call it before doing a task a listed skill covers, then follow the procedure. `version` loads an earlier version; `label` the version with that label.",
    input: z.strictObject({
      name: skillNameParam.describe("the skill's name, as in the listing"),
      version: versionNumber.optional().describe("an earlier version of a learned or file skill"),
      label: labelParam.optional().describe("the version with this label (e.g. staging), or the default where the skill has none"),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    scope: () => "read",
    run: async ({ name, version, label }, { app, auth, sessionId }) => {
      if (version !== undefined && label !== undefined) throw new AppError("InvalidQuery", "give version or label, not both");
      const team = { ...auth.team, label: label ?? null };
      const content = await viewSkill(app, { team, keyId: auth.keyId, sessionId }, name, version);
      return { text: skillViewText(content), meta: { [SERVED_META]: content.served } };
    },
    servesStale: {
      whenStale: ({ name }, { app, auth, sessionId }, kept) => {
        const first = kept.content[0];
        const annotation = first?.type === "text" ? parseAnnotationLine(first.text) : null;
        if (!annotation) return;
        const { source, version } = annotation;
        app.views.record({ teamId: auth.team.id, skillName: name, source, version, keyId: auth.keyId, sessionId, viewedAt: new Date() });
      },
    },
  }),
  tool({
    name: "skill_file",
    title: "Read a skill's supporting file",
    description:
      'Reads a supporting file of a skill (scripts/, references/, assets/), byte for byte, when its body points to one ("see REFERENCE.md"). Text comes back as text, anything else as an embedded resource. Paths are relative to the skill\'s folder and case-sensitive.',
    input: z.strictObject({
      name: skillNameParam.describe("the skill's name"),
      path: z.string().min(1).max(1000).describe("the file's path inside the skill folder, e.g. references/forms.md"),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    scope: () => "read",
    run: async ({ name, path }, { app, auth }) =>
      fileContent(name, path, (await readSkillFile(app.catalogs, auth.team, name, path)).content),
    servesStale: {},
  }),
  tool({
    name: "skill_manage",
    title: "Write or check a learned skill",
    description: [
      "Writes learned skills (your own procedures) and checks descriptions.",
      "create: a new skill as a draft (name, description, body, reason: why it exists). Drafts stay out of the listing until a person promotes them.",
      "update: a new version of a learned skill; send expectedVersion, the version you loaded, and the new description and/or body.",
      "delete: archives a learned skill. promote: makes a draft active (needs an admin key).",
      "lint: checks a description (send description) or a skill's description (send name) for what stops agents from noticing it.",
      "Built-in and file skills cannot be changed here.",
    ].join(" "),
    input: manageInput,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    scope: (args) => ((args as { action?: unknown } | null)?.action === "lint" ? "read" : "write"),
    run: manage,
  }),
  tool({
    name: "experiment",
    title: "Experiment ledger",
    description: [
      "The plan's append-only experiment ledger, sci.<slug>/ledger.",
      "record-hypothesis {text}; record-prediction {id: H<n>, text, falsifiedBy: the exact command whose output would refute it};",
      "record-verdict {id: P<n>, verdict: confirmed|refuted|inconclusive, evidence: the output that decides it};",
      "record-observation {text}; record-conclusion {text}; record-skip {id: P<n>, reason}; list.",
      "A prediction takes exactly one verdict. Before calling work done, make sure no prediction is open.",
    ].join(" "),
    input: z.strictObject({ slug: ledgerSlugParam, ...ledgerBody.shape }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    scope: () => "write",
    run: async ({ slug, ...input }, { app, auth, sessionId }) => {
      if (input.action === "list") return formatLedger(slug, await readLedger(app.db, auth.team.id, slug));
      const record = await appendRecord(app.db, auth.team.id, slug, input, { keyId: auth.keyId, userId: null, sessionId });
      return json({ record: recordJson(record), ledger: ledgerKey(slug) });
    },
  }),
  tool({
    name: "record_observation",
    title: "Record a run of a skill",
    description:
      "Records how a run of a skill went, so the skill can improve from evidence: skill, task (what you were asked), category, outcome (success, failure or partial), and when you know them score (0–1), errorType, durationMs, toolsCalled, failedToolCalls, feedback. Record failures honestly: they are what amendments learn from.",
    input: observationBody,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    scope: () => "write",
    run: async (args, { app, auth, sessionId }) =>
      json({ ids: await recordObservations(app.db, app.catalogs, auth.team, [args], { keyId: auth.keyId, sessionId }) }),
  }),
];

/** Each tool by its name: a call finds its tool without a search. */
const TOOLS_BY_NAME = new Map(TOOLS.map((definition) => [definition.name, definition as ToolDefinition<z.ZodObject>]));

/** About what a result holds in memory, without serializing it (skill_list of a big catalog is large). */
function sizeOf(result: CallToolResult): number {
  return result.content.reduce((bytes, part) => bytes + 100 + ("text" in part ? part.text.length : JSON.stringify(part).length), 0);
}

/** A file as REST serves it: text when it is UTF-8 with no NUL byte, else the bytes as a resource. */
function fileContent(name: string, path: string, bytes: Uint8Array): string | ToolContent {
  const text = bytes.includes(0) ? null : decodeUtf8(bytes);
  if (text !== null) return text;
  const uri = `skillgate://skills/${name}/files/${path.split("/").map(encodeURIComponent).join("/")}`;
  return [{ type: "resource", resource: { uri, mimeType: contentTypeOf(path), blob: Buffer.from(bytes).toString("base64") } }];
}

/** What `tools/list` says of each tool: its input as JSON Schema, from the same zod schema that checks the call. */
export function toolList(): Tool[] {
  return TOOLS.map((definition) => {
    const { $schema: _dialect, ...inputSchema } = z.toJSONSchema(definition.input, { io: "input", unrepresentable: "any" }) as Record<
      string,
      unknown
    >;
    return {
      name: definition.name,
      title: definition.title,
      description: definition.description,
      inputSchema: inputSchema as Tool["inputSchema"],
      annotations: { title: definition.title, ...definition.annotations },
    };
  });
}

async function callTool(call: McpCall, name: string, args: unknown): Promise<CallToolResult> {
  try {
    const definition = TOOLS_BY_NAME.get(name);
    if (!definition) throw new AppError("NotFound", `no tool named "${name}"; the tools are ${TOOLS.map((t) => t.name).join(", ")}`);
    const auth = call.auth();
    const scope = definition.scope(args);
    requireScope(auth, scope);
    const input = parseWith(definition.input, args ?? {}, "InvalidField");
    const sessionId = call.sessionId();
    const actor: KeyActor = { kind: "key", keyId: auth.keyId, credential: auth.credential, scopes: auth.scopes, sessionId };
    const context = { app: call.app, auth, actor, sessionId };
    const answer = async (): Promise<CallToolResult> => {
      const content = await definition.run(input, context);
      if (typeof content === "string") return { content: [{ type: "text", text: content }] };
      if (Array.isArray(content)) return { content };
      return { content: [{ type: "text", text: content.text }], _meta: content.meta };
    };
    const whenStale = definition.servesStale?.whenStale;
    const result = definition.servesStale
      ? await answerOrLast(
          call.app,
          TOOL_RESULTS,
          auth.team.id,
          `${definition.name} ${JSON.stringify(input)}`,
          answer,
          whenStale && ((kept) => whenStale(input, context, kept)),
        )
      : await answer();
    const staleSeconds = secondsFromMemory(call.app.database.health, auth);
    if (staleSeconds === undefined || result._meta?.[STALE_META] !== undefined) return result;
    return markedStale(result, staleSeconds);
  } catch (error) {
    // The REST route's message for the same failure (docs/mcp.md#answers-and-refusals), an outage included; a bug is logged, not echoed.
    const known = knownError(error);
    if (!known) logUnexpected(`MCP tool ${name} failed`, error);
    return { content: [{ type: "text", text: (known ?? INTERNAL_ERROR).message }], isError: true };
  }
}

/** How tool results are kept for an outage (lib/http/pipeline.ts, `answerOrLast`): each as it is, given again marked in `_meta`. */
const TOOL_RESULTS: Keeping<CallToolResult, CallToolResult> = {
  store: (answers) => answers.toolResults as AnswerStore<CallToolResult>,
  keep: (store, key, result, teamChanges) => {
    store.keep(key, result, sizeOf(result), teamChanges);
    return result;
  },
  stale: markedStale,
};

/** A result made from memory, marked so. */
function markedStale(result: CallToolResult, staleSeconds: number): CallToolResult {
  return { ...result, _meta: { ...result._meta, [STALE_META]: staleSeconds } };
}

export function registerTools(server: Server, call: McpCall): void {
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolList() }));
  server.setRequestHandler(CallToolRequestSchema, (request) => callTool(call, request.params.name, request.params.arguments));
}
