import { z } from "zod";
import { defineOperation, json, text, type HeaderSpec } from "./operation";
import { positiveIntText, servedSchema } from "./fields";
import { refuseWith } from "../validation";
import { labelParam } from "../skills/label";

/** The listing for an agent's system prompt (docs/skills-and-listing.md#the-listing). */

export const listingQuery = z
  .object({
    cap: positiveIntText(1_000_000).optional().describe("what-if cap in characters; the team's setting when omitted"),
    descMax: positiveIntText(1024).optional().describe("what-if description cut in characters; the team's setting when omitted"),
    format: z.enum(["text", "json"]).optional().describe("text (default) or json"),
    full: z
      .enum(["true", "false"])
      .optional()
      .describe("true: the full catalog, every description whole, no cap (what skill_list answers)"),
    label: labelParam
      .optional()
      .describe("list, for every learned skill, the version with this label and its description, or the default where it has none"),
  })
  .superRefine(
    refuseWith("InvalidQuery", (query: { cap?: number; descMax?: number; full?: string }) =>
      query.full === "true" && (query.cap !== undefined || query.descMax !== undefined)
        ? "full=true renders the whole catalog (no cap, no descMax): drop cap and descMax"
        : null,
    ),
  );

/** The full catalog (docs/mcp.md#tools): the listing with nothing cut. */
export const FULL_CATALOG = { cap: Number.POSITIVE_INFINITY, descMax: Number.POSITIVE_INFINITY } as const;

const figureHeaders: Record<string, HeaderSpec> = {
  "X-Skills-Total": { description: "skills in the listing before truncation", type: "integer" },
  "X-Skills-Shown": { description: "entries still present", type: "integer" },
  "X-Skills-Dropped-Descriptions": { description: "entries shown without their description", type: "integer" },
  "X-Skills-Dropped-Entries": { description: "entries dropped", type: "integer" },
  "X-Listing-Chars": { description: "the block's length in code points", type: "integer" },
  "X-Listing-Cap": { description: "the cap it was rendered for; absent with ?full=true", type: "integer", optional: true },
  ETag: { description: "changes whenever the text does", type: "string" },
};

export const ENTRY_STATES = ["full", "cut", "stripped", "dropped"] as const;

const count = z.number().int().min(0);

export const listingJsonSchema = z.strictObject({
  text: z.string().describe("exactly the text/plain listing"),
  total: count,
  shown: count,
  droppedDescriptions: count,
  droppedEntries: count,
  chars: count,
  cap: z.number().int().nullable().describe("null with ?full=true"),
  descMax: z.number().int().nullable().describe("null with ?full=true"),
  truncated: z.boolean(),
  groups: z.array(
    z.strictObject({
      scope: z.enum(["builtin", "global", "workspace", "learned"]),
      heading: z.string(),
      chars: count.describe("characters this group uses"),
      entries: z.array(
        z.strictObject({
          name: z.string(),
          description: z.string(),
          state: z.enum(ENTRY_STATES),
          served: servedSchema.describe("the version listed, and why: the label asked for, a lead's pin, or the latest"),
        }),
      ),
    }),
  ),
});

export const getListing = defineOperation({
  operationId: "getListing",
  servesStale: true,
  method: "GET",
  path: "/api/v1/listing",
  tag: "listing",
  summary: "The skills listing for an agent's system prompt, never silently truncated",
  description:
    "`?cap=&descMax=` render a what-if without changing settings; `?format=json` gives the same text with its figures and entries.",
  scope: "read",
  query: listingQuery,
  responses: {
    200: [
      text(
        "the listing block",
        "[skills listing — prefer a matching skill over improvising; load bodies with skill_view]\n## Built-in\n- systematic-debugging: Finds root causes…",
        figureHeaders,
      ),
      json(listingJsonSchema, "with ?format=json: the same text with its figures and per-group entries", figureHeaders),
    ],
    304: { kind: "empty", description: "unchanged (If-None-Match)", headers: figureHeaders },
  },
  errors: ["InvalidQuery", "InvalidLabel", "LabelNotFound"],
});

export const LISTING_OPERATIONS = [getListing];
