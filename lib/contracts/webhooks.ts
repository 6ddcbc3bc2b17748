import { z } from "zod";
import { WEBHOOK_EVENTS, TEST_EVENT } from "../webhooks/events";
import { webhookEvents, webhookUrl } from "../webhooks/input";
import { defineOperation, json } from "./operation";
import { idParams, isoTime, nextCursor, pageQuery } from "./fields";

/**
 * Webhooks (docs/learned-skills.md#webhooks-and-mail): a lead registers receivers for the team's events; each delivery is JSON signed with
 * HMAC-SHA256 (`X-Skillgate-Signature: t=<unix>,v1=<hex>` over `<t>.<raw body>`), sent from a durable
 * outbox, retried for 24 h, and listed here with its answer.
 */

const format = z
  .enum(["json", "slack"])
  .describe("json: the signed envelope {id, event, time, team, data, url}; slack: a readable {text} message with a link");

export const createWebhookBody = z.strictObject({
  url: webhookUrl,
  events: webhookEvents,
  format: format.optional().describe("default: slack for a hooks.slack.com URL, else json"),
});

const webhookSchema = z.strictObject({
  id: z.number().int(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  format,
  secretPrefix: z.string().describe("the signing secret's first characters, to tell webhooks apart"),
  createdAt: isoTime,
  createdBy: z.string().nullable().describe("the person who made it; null when a key did"),
});

export const createWebhook = defineOperation({
  operationId: "createWebhook",
  method: "POST",
  path: "/api/v1/webhooks",
  tag: "team",
  summary: "Register a receiver for some of the team's events; its signing secret is in this answer only",
  scope: "admin",
  body: { schema: createWebhookBody },
  responses: {
    201: json(
      webhookSchema.extend({
        secret: z.string().describe("whsec_…: the HMAC-SHA256 key of X-Skillgate-Signature; shown once, keep it in the receiver"),
      }),
      "the webhook with its secret",
    ),
  },
  errors: ["WebhookExists", "TooManyWebhooks"],
});

export const listWebhooks = defineOperation({
  operationId: "listWebhooks",
  method: "GET",
  path: "/api/v1/webhooks",
  tag: "team",
  summary: "The team's webhooks, newest first",
  scope: "admin",
  responses: { 200: json(z.strictObject({ webhooks: z.array(webhookSchema) }), "newest first") },
  errors: [],
});

export const deleteWebhook = defineOperation({
  operationId: "deleteWebhook",
  method: "DELETE",
  path: "/api/v1/webhooks/{id}",
  tag: "team",
  summary: "Delete a webhook: nothing more is sent to it, and its deliveries go with it",
  scope: "admin",
  params: idParams,
  responses: { 200: json(z.strictObject({ id: z.number().int(), deleted: z.literal(true) }), "deleted") },
  errors: ["WebhookNotFound"],
});

const attemptSchema = z.strictObject({
  at: isoTime,
  statusCode: z.number().int().nullable().describe("the receiver's HTTP status; null when there was no answer (or for a mail)"),
  answer: z.string().nullable().describe("the first 500 characters of the answer's body"),
  error: z.string().nullable().describe("why there was no answer: a time-out, a refused connection, the mail server's refusal"),
  ms: z.number().int(),
});

const deliverySchema = z.strictObject({
  id: z.number().int().describe("X-Skillgate-Delivery"),
  eventId: z.string().describe("the envelope's id: the same for every receiver of one event"),
  event: z.enum([...WEBHOOK_EVENTS, TEST_EVENT]),
  createdAt: isoTime,
  status: z.enum(["pending", "delivered", "failed"]).describe("failed: no 2xx within 24 hours of the event"),
  nextAttemptAt: isoTime.nullable().describe("when it is tried next; null once delivered or failed"),
  attempts: z.array(attemptSchema).describe("every attempt, first to last"),
});

export const listWebhookDeliveries = defineOperation({
  operationId: "listWebhookDeliveries",
  method: "GET",
  path: "/api/v1/webhooks/{id}/deliveries",
  tag: "team",
  summary: "A webhook's deliveries, newest first, each attempt with the receiver's answer",
  scope: "admin",
  params: idParams,
  query: pageQuery,
  responses: { 200: json(z.strictObject({ deliveries: z.array(deliverySchema), nextCursor }), "newest first") },
  errors: ["WebhookNotFound"],
});

export const testWebhook = defineOperation({
  operationId: "testWebhook",
  method: "POST",
  path: "/api/v1/webhooks/{id}/test",
  tag: "team",
  summary: "Send the webhook a `ping` event now, signed and recorded like any delivery",
  scope: "admin",
  params: idParams,
  responses: { 202: json(z.strictObject({ delivery: z.number().int() }), "queued; it is sent at once, beside this request") },
  errors: ["WebhookNotFound"],
});

export const WEBHOOK_OPERATIONS = [createWebhook, listWebhooks, deleteWebhook, listWebhookDeliveries, testWebhook];
