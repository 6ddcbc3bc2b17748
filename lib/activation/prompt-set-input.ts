import { z } from "zod";
import { skillNameProblem } from "../skills/name";
import { skillNameField } from "../skills/name-schema";

/** What a prompt set is (docs/evaluation-and-activation.md#activation-evals), checked the same for the API, the dashboard and the demo. */

const skillName = skillNameField.refine((name) => skillNameProblem(name) === null, { message: "is not a skill name" });

export const promptCaseSchema = z
  .strictObject({
    id: z
      .string()
      .regex(/^[DPG][A-Za-z0-9_.-]{0,63}$/, "must start with D (keywords), P (paraphrase) or G (should trigger nothing), e.g. D1"),
    prompt: z.string().trim().min(1, "is empty").max(10_000),
    expected: z.array(skillName).max(20).default([]),
    expectNone: z.boolean().default(false),
  })
  .refine((c) => !(c.expectNone && c.expected.length > 0), { message: "expects nothing, so expected must be empty", path: ["expected"] })
  .refine((c) => c.expectNone || c.expected.length > 0, {
    message: "names no expected skill: give expected, or expectNone: true",
    path: ["expected"],
  });

const promptSetName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,79}$/, "must be 1–80 lowercase letters, digits and hyphens")
  // POST /api/v1/evals/prompt-sets/from-telemetry is a route of its own: a set of that name could not be read.
  .refine((name) => name !== "from-telemetry", "from-telemetry is taken by the route that builds sets from telemetry; choose another name");

const promptCases = z
  .array(promptCaseSchema)
  .min(1, "needs at least one case")
  .max(5000)
  .superRefine((cases, ctx) => {
    const seen = new Set<string>();
    for (const c of cases) {
      if (seen.has(c.id))
        ctx.addIssue({
          code: "custom",
          message: `case id "${c.id}" appears twice; ids must be unique`,
          params: { errorCode: "InvalidField" },
        });
      seen.add(c.id);
    }
  });

export const promptSetBody = z.strictObject({ name: promptSetName, cases: promptCases });
export type PromptSet = z.infer<typeof promptSetBody>;

/** PUT names the set in the URL; a name in the body must agree. */
export const promptSetReplaceBody = z.strictObject({ name: promptSetName.optional(), cases: promptCases });
