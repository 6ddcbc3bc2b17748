import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { App } from "../app/app";
import type { KeyAuth } from "../auth/api-keys";
import { grants, type Scope } from "../auth/scopes";
import { AppError, isAppError } from "../errors";
import { parseObservationsBody, recordObservations } from "../evolution/observations";
import { ledgerBodySchema, versionNumber } from "../api/schemas";
import type { Actor } from "../learned/actor";
import { archiveLearned, createLearned, promoteLearned, updateLearned } from "../learned/write";
import { appendRecord, parseLedgerAction, parseLedgerSlug, readLedger } from "../ledger/append";
import { formatLedger, ledgerKey, recordJson } from "../ledger/records";
import { formatLint, lintDescription } from "../lint/lint";
import { lintSkill } from "../lint/lint-skill";
import { parseSkillName } from "../skills/name";
import { skillViewText, viewSkill } from "../skills/view";

/**
 * The MCP tools of §12. Each answers the very string the REST route answers for the same
 * request: its text body, or the JSON body as it is serialized, or the error's `message`.
 */

export interface McpCall {
  app: App;
  /** The key of this request: re-read on every request, so revocation and catalog changes apply at once. */
  auth: () => KeyAuth;
  sessionId: () => string | null;
}

type ToolResult = { content: { type: "text"; text: string }[]; isError?: boolean };

async function answer(call: McpCall, scope: Scope, work: (auth: KeyAuth, actor: Actor & { kind: "key" }) => Promise<string>): Promise<ToolResult> {
  try {
    const auth = call.auth();
    if (!grants(auth.scopes, scope)) {
      throw new AppError("Forbidden", `this API key lacks the "${scope}" scope; ask a lead for a key that has it`);
    }
    const actor = { kind: "key" as const, keyId: auth.keyId, scopes: auth.scopes, sessionId: call.sessionId() };
    return { content: [{ type: "text", text: await work(auth, actor) }] };
  } catch (error) {
    if (isAppError(error)) return { content: [{ type: "text", text: error.message }], isError: true };
    console.error("skillgate: MCP tool failed:", error);
    return { content: [{ type: "text", text: "internal error; the server log has the details" }], isError: true };
  }
}

const json = (value: unknown) => JSON.stringify(value);

export function registerTools(server: McpServer, call: McpCall): void {
  const { app } = call;

  server.registerTool(
    "skill_list",
    {
      title: "List skills",
      description:
        "The team's skills listing, as text for your system prompt: every skill you may load, grouped by source, with a one-line description. Prefer a matching skill over improvising; load one with skill_view. If the listing says it was truncated, call this tool again later or ask for the full catalog.",
      inputSchema: {},
    },
    () =>
      answer(call, "read", async (auth) => {
        const { team } = auth;
        return (await app.catalogs.listing(team, { cap: team.listingCap, descMax: team.descMax, loadHint: team.loadHint })).text;
      }),
  );

  server.registerTool(
    "skill_view",
    {
      title: "Load a skill",
      description:
        "Loads the full body of a skill by name, byte for byte, after a header line [skill <name> | <source> | v<N>]. Call it before doing a task a listed skill covers, then follow the procedure. `version` loads an earlier version.",
      inputSchema: { name: z.string().describe("the skill's name, as in the listing"), version: versionNumber.optional() },
    },
    ({ name, version }) =>
      answer(call, "read", async (auth) => {
        const content = await viewSkill(app, { team: auth.team, keyId: auth.keyId, sessionId: call.sessionId() }, parseSkillName(name), version);
        return skillViewText(content);
      }),
  );

  server.registerTool(
    "skill_manage",
    {
      title: "Write or check a learned skill",
      description: [
        "Writes learned skills (your own procedures) and checks descriptions.",
        "create: a new skill as a draft (name, description, body, reason: why it exists). Drafts stay out of the listing until a person promotes them.",
        "update: a new version of a learned skill; send expectedVersion, the version you loaded, and the new description and/or body.",
        "delete: archives a learned skill. promote: makes a draft active (needs an admin key).",
        "lint: checks a description (send description) or a skill's description (send name) for what stops agents from noticing it.",
        "Built-in and file skills cannot be changed here.",
      ].join(" "),
      inputSchema: {
        action: z.enum(["create", "update", "delete", "promote", "lint"]),
        name: z.string().optional().describe("the skill's name (lowercase letters, digits, hyphens)"),
        description: z.string().optional(),
        body: z.string().optional(),
        expectedVersion: versionNumber.optional(),
        reason: z.string().optional(),
        status: z.enum(["draft", "active"]).optional(),
      },
    },
    (args) => answer(call, args.action === "lint" ? "read" : "write", (auth, actor) => manage(app, auth, actor, args)),
  );

  server.registerTool(
    "experiment",
    {
      title: "Experiment ledger",
      description: [
        "The plan's append-only experiment ledger, sci.<slug>/ledger.",
        "record-hypothesis {text}; record-prediction {id: H<n>, text, falsifiedBy: the exact command whose output would refute it};",
        "record-verdict {id: P<n>, verdict: confirmed|refuted|inconclusive, evidence: the output that decides it};",
        "record-observation {text}; record-conclusion {text}; record-skip {id: P<n>, reason}; list.",
        "A prediction takes exactly one verdict. Before calling work done, make sure no prediction is open.",
      ].join(" "),
      inputSchema: {
        slug: z.string().describe("the plan's slug: lowercase letters, digits, hyphens"),
        ...ledgerBodySchema.shape,
        action: ledgerBodySchema.shape.action.describe("record-hypothesis, record-prediction, record-verdict, record-observation, record-conclusion, record-skip or list"),
      },
    },
    ({ slug, ...input }) =>
      answer(call, "write", async (auth) => {
        const plan = parseLedgerSlug(slug);
        if (parseLedgerAction(input.action) === "list") return formatLedger(plan, await readLedger(app.db, auth.team.id, plan));
        const record = await appendRecord(app.db, auth.team.id, plan, input, { keyId: auth.keyId, userId: null, sessionId: call.sessionId() });
        return json({ record: recordJson(record), ledger: ledgerKey(plan) });
      }),
  );

  server.registerTool(
    "record_observation",
    {
      title: "Record a run of a skill",
      description:
        "Records how a run of a skill went, so the skill can improve from evidence: skill, task (what you were asked), category, outcome (success, failure or partial), and when you know them score (0–1), errorType, durationMs, toolsCalled, failedToolCalls, feedback. Record failures honestly: they are what amendments learn from.",
      // Loose on purpose: values are checked by the same code as the REST route, so refusals read the same.
      inputSchema: {
        skill: z.string(),
        version: versionNumber.optional(),
        task: z.string(),
        category: z.string(),
        outcome: z.string().describe("success, failure or partial"),
        score: z.number().optional(),
        errorType: z.string().optional(),
        durationMs: z.number().optional(),
        toolsCalled: z.array(z.string()).optional(),
        failedToolCalls: z.array(z.string()).optional(),
        feedback: z.string().optional(),
        sessionId: z.string().optional(),
      },
    },
    (args) =>
      answer(call, "write", async (auth) => {
        const ids = await recordObservations(app.db, app.catalogs, auth.team, parseObservationsBody(args), { keyId: auth.keyId, sessionId: call.sessionId() });
        return json({ ids });
      }),
  );
}

interface ManageArgs {
  action: "create" | "update" | "delete" | "promote" | "lint";
  name?: string;
  description?: string;
  body?: string;
  expectedVersion?: number;
  reason?: string;
  status?: "draft" | "active";
}

async function manage(app: App, auth: KeyAuth, actor: Actor & { kind: "key" }, args: ManageArgs): Promise<string> {
  const teamId = auth.team.id;
  if (args.action === "lint") {
    if (args.description !== undefined) return formatLint(lintDescription(args.description, auth.team.descMax));
    return lintSkill(app.catalogs, auth.team, parseSkillName(required(args.name, "name")));
  }
  const name = required(args.name, "name");
  switch (args.action) {
    case "create":
      return json(
        await createLearned(app, teamId, actor, {
          name,
          description: required(args.description, "description"),
          body: required(args.body, "body"),
          status: args.status,
          reason: args.reason,
        }),
      );
    case "update": {
      const expectedVersion = args.expectedVersion;
      if (expectedVersion === undefined) throw new AppError("InvalidField", "send expectedVersion (or an If-Match header): the version this change was made against");
      return json(await updateLearned(app, teamId, actor, parseSkillName(name), { description: args.description, body: args.body, reason: args.reason, expected: { version: expectedVersion } }));
    }
    case "delete":
      return json(await archiveLearned(app, teamId, actor, parseSkillName(name)));
    case "promote":
      return json(await promoteLearned(app, teamId, actor, parseSkillName(name)));
  }
}

function required(value: string | undefined, field: string): string {
  if (value === undefined) throw new AppError("InvalidField", `field "${field}": Invalid input: expected string, received undefined`);
  return value;
}
