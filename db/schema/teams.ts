import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    email: text("email").notNull(),
    name: text("name"),
    // scrypt hash in the form scrypt$N$r$p$salt$hash; null for GitHub-only people.
    passwordHash: text("password_hash"),
    githubId: text("github_id"),
    // The verified addresses of the GitHub account, as of its latest sign-in: an invitation to any of them is this person's.
    githubEmails: text("github_emails")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("users_email_key").on(t.email), uniqueIndex("users_github_id_key").on(t.githubId)],
);

/**
 * A person's signed-in browser. The session cookie (an Auth.js JWT) names one of these rows by a
 * random id, kept here only as its SHA-256: deleting the row ends the session at once, whatever
 * copies of the cookie exist.
 */
export const dashboardSessions = pgTable(
  "dashboard_sessions",
  {
    idHash: text("id_hash").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("dashboard_sessions_user_id_idx").on(t.userId)],
);

export const teams = pgTable(
  "teams",
  {
    id: serial("id").primaryKey(),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    listingCap: integer("listing_cap").notNull().default(8000),
    descMax: integer("desc_max").notNull().default(60),
    loadHint: text("load_hint").notNull().default("skill_view"),
    autoPromote: boolean("auto_promote").notNull().default(true),
    // Pins, unpins, label moves and rollbacks must say why (docs/learned-skills.md#reasons).
    requireReasons: boolean("require_reasons").notNull().default(false),
    // Production telemetry (docs/telemetry.md#storage-and-retention): prompt texts are kept only when a lead turns this on.
    storePrompts: boolean("store_prompts").notNull().default(false),
    // Days raw telemetry events are kept; the daily counts are kept for good.
    telemetryDays: integer("telemetry_days").notNull().default(30),
    // Bumped by every change to what the listing can show (active, shadowed, invalid); catalogs and
    // rendered listings are cached against it. A change to drafts alone bumps drafts_revision.
    catalogRevision: integer("catalog_revision").notNull().default(0),
    draftsRevision: integer("drafts_revision").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("teams_slug_key").on(t.slug)],
);

export const memberships = pgTable(
  "memberships",
  {
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["viewer", "editor", "lead"] }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.userId] })],
);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    // The first characters of the key, shown in the dashboard to tell keys apart.
    prefix: text("prefix").notNull(),
    // Null for a connection (OAuth, db/schema/oauth.ts): its tokens are in oauth_tokens.
    keyHash: text("key_hash"),
    scopes: text("scopes")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    // The member it acts for: a connection's (OAuth), or a member key's (lib/auth/member-keys.ts),
    // whose telemetry is that member's. Null for a team's key. docs/decisions/people-as-people.md.
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    // A connection's client, which holds its tokens.
    clientId: text("client_id"),
    clientName: text("client_name"),
  },
  (t) => [
    uniqueIndex("api_keys_key_hash_key").on(t.keyHash),
    index("api_keys_user_idx").on(t.userId),
    // One live member key per member and team: making a new one revokes the last, whatever the race.
    uniqueIndex("api_keys_member_key")
      .on(t.teamId, t.userId)
      .where(sql`${t.userId} is not null and ${t.keyHash} is not null and ${t.revokedAt} is null`),
  ],
);

/**
 * Read-only links for installers that cannot send a key (`npx skills add <url>`, docs/mcp.md#skill-installers): the token
 * in the URL reads the team's skills index and its files, nothing else. Stored hashed, like keys.
 */
export const installLinks = pgTable(
  "install_links",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    // The first characters of the token, shown in the dashboard to tell links apart.
    prefix: text("prefix").notNull(),
    tokenHash: text("token_hash").notNull(),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdByKey: integer("created_by_key").references(() => apiKeys.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    // A link made for a label (docs/learned-skills.md#labels) installs, for every skill, the version with that label.
    label: text("label"),
  },
  (t) => [uniqueIndex("install_links_token_hash_key").on(t.tokenHash)],
);

/**
 * An invitation to join a team with a role (docs/teams-and-keys.md#members-and-invitations): a one-time link, valid for 7 days. The token
 * is stored as its SHA-256; accepting sets `acceptedAt`, and a used, withdrawn or expired
 * invitation opens nothing.
 */
export const invitations = pgTable(
  "invitations",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    role: text("role", { enum: ["viewer", "editor", "lead"] }).notNull(),
    tokenHash: text("token_hash").notNull(),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdByKey: integer("created_by_key").references(() => apiKeys.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    acceptedBy: integer("accepted_by").references(() => users.id, { onDelete: "set null" }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("invitations_token_hash_key").on(t.tokenHash), index("invitations_team_idx").on(t.teamId)],
);

/**
 * Requests per API key (or install link) in its current window, shared by every instance (issue 14).
 * A window starts at the first request after the last one ended and lasts a minute; instances claim
 * the window's allowance in chunks (lib/security/rate-limit.ts), so most requests never touch this row.
 */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
  used: integer("used").notNull(),
});

/**
 * Failed sign-ins counted per account and address, per address and per account (lib/auth/sign-in-throttle.ts),
 * shared by every instance so a guesser gets one allowance however many instances answer.
 */
export const signInFailures = pgTable("sign_in_failures", {
  key: text("key").primaryKey(),
  windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
  failures: integer("failures").notNull(),
});

/** Addresses an account signed in from: a crowd of other addresses cannot lock its owner out there. */
export const signInKnownAddresses = pgTable(
  "sign_in_known_addresses",
  {
    account: text("account").notNull(),
    address: text("address").notNull(),
    seenAt: timestamp("seen_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.account, t.address] })],
);
