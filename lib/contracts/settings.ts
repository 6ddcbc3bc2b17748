import { z } from "zod";
import { SCOPES } from "../auth/scopes";
import { defineOperation, json } from "./operation";

/**
 * Team settings (docs/teams-and-keys.md#team-settings): a lead changes them on the settings page, an admin key with
 * `PATCH /api/v1/settings`; both validate with these.
 */

export const listingSettingsBody = z.strictObject({
  cap: z.coerce.number().int().min(200, "must be at least 200").max(1_000_000).describe("the listing's cap in characters"),
  descMax: z.coerce.number().int().min(1).max(1024).describe("characters of a description the listing keeps"),
  loadHint: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[^\]\r\n]+$/, "may not hold a line break or ]")
    .describe("what the listing's header tells agents to load bodies with"),
});
export type ListingSettings = z.infer<typeof listingSettingsBody>;

export const createApiKeyBody = z.strictObject({
  name: z.string().trim().min(1, "give the key a name").max(80),
  scopes: z.array(z.enum(SCOPES)).min(1, "choose at least one scope"),
});

export const teamSettingsSchema = z.strictObject({
  cap: z.number().int(),
  descMax: z.number().int(),
  loadHint: z.string(),
  autoPromote: z.boolean().describe("false: an improved evaluation waits for a lead's approval"),
  requireReasons: z.boolean().describe("true: pinning, unpinning, moving or removing a label and rolling back must say why"),
  storePrompts: z.boolean().describe("keep the prompt texts agents send in their telemetry; off: only that a prompt happened"),
  telemetryDays: z.number().int().describe("days raw telemetry events are kept; the daily counts are kept for good"),
});
export type TeamSettings = z.infer<typeof teamSettingsSchema>;

/** Telemetry settings (docs/telemetry.md), on the settings page's own form. */
export const telemetrySettingsBody = z.strictObject({
  storePrompts: z.boolean().describe("keep prompt texts from telemetry (true) or only count prompts (false)"),
  telemetryDays: z.coerce
    .number()
    .int("must be a whole number of days")
    .min(1, "must be at least 1 day")
    .max(3650, "must be at most 3650 days")
    .describe("days raw telemetry events are kept (default 30)"),
});

export const settingsPatchBody = listingSettingsBody
  .partial()
  .extend({
    autoPromote: z.boolean().optional().describe("promote an improved amendment at once (true) or wait for a lead (false)"),
    requireReasons: z.boolean().optional().describe("ask for a reason with every pin, unpin, label move and rollback (true)"),
  })
  .extend(telemetrySettingsBody.partial().shape)
  .refine(
    (patch) => Object.keys(patch).length > 0,
    "send at least one of cap, descMax, loadHint, autoPromote, requireReasons, storePrompts, telemetryDays",
  );
export type SettingsPatch = z.infer<typeof settingsPatchBody>;

export const getSettings = defineOperation({
  operationId: "getSettings",
  method: "GET",
  path: "/api/v1/settings",
  tag: "team",
  summary: "The team's listing settings, whether improved amendments are promoted at once, and what telemetry keeps",
  scope: "read",
  responses: { 200: json(teamSettingsSchema, "the team's settings") },
  errors: [],
});

export const updateSettings = defineOperation({
  operationId: "updateSettings",
  method: "PATCH",
  path: "/api/v1/settings",
  tag: "team",
  summary: "Change any of the team's settings; the others stay",
  scope: "admin",
  body: { schema: settingsPatchBody },
  responses: { 200: json(teamSettingsSchema, "the team's settings after the change") },
  errors: [],
});

export const SETTINGS_OPERATIONS = [getSettings, updateSettings];
