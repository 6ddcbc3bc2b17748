import { z } from "zod";
import { SCOPES } from "../auth/scopes";

/**
 * Team settings a lead changes on the settings page. No REST route takes them yet; the dashboard's
 * actions validate with these, and the API routes to come will too.
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
