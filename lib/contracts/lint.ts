import { z } from "zod";
import { defineOperation, text } from "./operation";
import { nameParams } from "./fields";

/** Description lint (docs/skills-and-listing.md#description-lint): deterministic, no model. */

const findings = text(
  "one `[lint] <RuleId>: <message>` line per finding, or `[lint] clean`",
  "[lint] WhatAndWhen: Say what it does AND when to use it (add a 'use when ...' clause)",
);

export const lintBody = z.strictObject({ description: z.string().describe("the description to check") });

export const lintDescription = defineOperation({
  operationId: "lintDescription",
  method: "POST",
  path: "/api/v1/lint",
  tag: "lint",
  summary: "Lint any description, with the team's descMax",
  scope: "read",
  body: { schema: lintBody },
  responses: { 200: findings },
  errors: [],
});

export const lintSkill = defineOperation({
  operationId: "lintSkill",
  method: "GET",
  path: "/api/v1/skills/{name}/lint",
  tag: "lint",
  summary: "Lint the description of the skill skill_view would serve",
  scope: "read",
  params: nameParams,
  responses: { 200: findings },
  errors: ["InvalidName", "SkillNotFound"],
});

export const LINT_OPERATIONS = [lintDescription, lintSkill];
