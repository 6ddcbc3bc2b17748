import { z } from "zod";
import { ROLES } from "../auth/scopes";
import { defineOperation, json } from "./operation";
import { idParams, isoTime } from "./fields";

/** Members and invitations (docs/teams-and-keys.md#members-and-invitations), for automation with an admin key; the settings page does the same. */

const role = z.enum(ROLES).describe("viewer (read), editor (edit learned skills, run evals) or lead (everything)");
const email = z.email("must be an email address").max(254).describe("the person's email");

const memberSchema = z.strictObject({ email: z.string(), role: z.enum(ROLES), joinedAt: isoTime });

export const emailParams = z.object({ email: z.string().min(1).max(254).describe("the member's email") });

export const listMembers = defineOperation({
  operationId: "listMembers",
  method: "GET",
  path: "/api/v1/members",
  tag: "team",
  summary: "The team's members and their roles",
  scope: "admin",
  responses: { 200: json(z.strictObject({ members: z.array(memberSchema) }), "by email") },
  errors: [],
});

export const changeRoleBody = z.strictObject({ role });

export const changeMemberRole = defineOperation({
  operationId: "changeMemberRole",
  method: "PATCH",
  path: "/api/v1/members/{email}",
  tag: "team",
  summary: "Change a member's role; the team's last lead cannot be demoted",
  scope: "admin",
  params: emailParams,
  body: { schema: changeRoleBody },
  responses: { 200: json(memberSchema, "the member with the new role") },
  errors: ["MemberNotFound", "LastLead"],
});

export const removeMember = defineOperation({
  operationId: "removeMember",
  method: "DELETE",
  path: "/api/v1/members/{email}",
  tag: "team",
  summary: "Remove a member and end their dashboard sessions; the team's last lead cannot be removed",
  scope: "admin",
  params: emailParams,
  responses: { 200: json(z.strictObject({ email: z.string(), removed: z.literal(true), sessionsEnded: z.number().int() }), "removed") },
  errors: ["MemberNotFound", "LastLead"],
});

export const inviteBody = z.strictObject({ email, role });

const pendingSchema = z.strictObject({
  id: z.number().int(),
  email: z.string(),
  role: z.enum(ROLES),
  createdAt: isoTime,
  expiresAt: isoTime,
});

export const createInvitation = defineOperation({
  operationId: "createInvitation",
  method: "POST",
  path: "/api/v1/invitations",
  tag: "team",
  summary: "Invite a person by email with a role: a one-time link, valid for 7 days",
  scope: "admin",
  body: { schema: inviteBody },
  responses: {
    201: json(
      z.strictObject({
        id: z.number().int(),
        url: z.string().describe("<origin>/invite/<token>: give it to the person"),
        expiresAt: isoTime,
        mailed: z
          .boolean()
          .describe("true when the link was mailed to the person (SKILLGATE_SMTP_URL and AUTH_URL set, and the send worked)"),
        notMailed: z
          .string()
          .nullable()
          .describe(
            "why the link was not mailed: no mail server, AUTH_URL not set (links are mailed only on the public URL), or the send failed; null when it was",
          ),
      }),
      "the invitation; its link is not shown again",
    ),
  },
  errors: ["AlreadyMember"],
});

export const listInvitations = defineOperation({
  operationId: "listInvitations",
  method: "GET",
  path: "/api/v1/invitations",
  tag: "team",
  summary: "Invitations not yet accepted, withdrawn or expired",
  scope: "admin",
  responses: { 200: json(z.strictObject({ invitations: z.array(pendingSchema) }), "oldest first") },
  errors: [],
});

export const withdrawInvitation = defineOperation({
  operationId: "withdrawInvitation",
  method: "DELETE",
  path: "/api/v1/invitations/{id}",
  tag: "team",
  summary: "Withdraw a pending invitation: its link opens nothing from now on",
  scope: "admin",
  params: idParams,
  responses: { 200: json(z.strictObject({ id: z.number().int(), revokedAt: isoTime }), "withdrawn") },
  errors: ["InvitationNotFound"],
});

export const MEMBER_OPERATIONS = [listMembers, changeMemberRole, removeMember, createInvitation, listInvitations, withdrawInvitation];
