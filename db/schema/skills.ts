import { sql } from "drizzle-orm";
import { boolean, customType, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { teams, users } from "./teams";

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * Text that must come back byte for byte, stored as its UTF-8 bytes: PGlite decodes text results
 * with a TextDecoder that drops a leading byte order mark, so a SKILL.md written on Windows would
 * lose its first three bytes (and its SHA-256 would no longer match). Decoded here keeping the BOM.
 */
const keepBom = new TextDecoder("utf-8", { ignoreBOM: true });
const exactText = customType<{ data: string; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  toDriver: (value) => Buffer.from(value, "utf8"),
  fromDriver: (value) => keepBom.decode(value),
});

/** The team's workspace skill folders as of the last sync. Content lives in the versions table. */
export const workspaceSkills = pgTable(
  "workspace_skills",
  {
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    currentVersion: integer("current_version").notNull(),
    description: text("description").notNull(),
    warnings: text("warnings")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.name] })],
);

/**
 * Every content a workspace skill has had. Rows outlive the folder: a folder removed and
 * synced again continues its numbering, so a vN always means the same bytes.
 */
export const workspaceSkillVersions = pgTable(
  "workspace_skill_versions",
  {
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    version: integer("version").notNull(),
    // SKILL.md = frontmatter || body, split where skill_view's body begins.
    frontmatter: exactText("frontmatter").notNull(),
    body: exactText("body").notNull(),
    sha256: text("sha256").notNull(),
    // Hash over SKILL.md and every supporting file: a sync bumps the version only when it changes.
    treeSha256: text("tree_sha256").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.name, t.version] })],
);

/**
 * The text of versions a sync writes ahead of its switch, in short transactions of their own (a
 * large tree must not hold the team's row for seconds). Nothing reads them but that sync's switch,
 * which numbers them as versions and deletes them in its transaction: a sync that fails leaves no
 * version anyone sees, and its rows are deleted after it (or by the tick, after a crash).
 */
export const workspaceStagedVersions = pgTable(
  "workspace_staged_versions",
  {
    syncId: text("sync_id").notNull(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    frontmatter: exactText("frontmatter").notNull(),
    body: exactText("body").notNull(),
    sha256: text("sha256").notNull(),
    treeSha256: text("tree_sha256").notNull(),
    stagedAt: timestamp("staged_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.syncId, t.name] }), index("workspace_staged_versions_time_idx").on(t.stagedAt)],
);

export const workspaceSkillFiles = pgTable(
  "workspace_skill_files",
  {
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    path: text("path").notNull(),
    content: bytea("content").notNull(),
    size: integer("size").notNull(),
    sha256: text("sha256").notNull(),
    // The file's executable bit, restored by `skillgate pull` (docs/skills-and-listing.md#sync).
    executable: boolean("executable").notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.name, t.path] })],
);

/**
 * Folders of the last sync that break a hard rule (docs/skills-and-listing.md#validation), with every error. A folder here may
 * still have a row in workspace_skills: its last valid version, which keeps serving.
 */
export const workspaceInvalidFolders = pgTable(
  "workspace_invalid_folders",
  {
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    // The folder's name in the tree: not always a valid skill name.
    name: text("name").notNull(),
    errors: text("errors").array().notNull(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.name] })],
);

export const learnedSkills = pgTable(
  "learned_skills",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    status: text("status", { enum: ["draft", "active", "archived"] }).notNull(),
    currentVersion: integer("current_version").notNull(),
    description: text("description").notNull(),
    // Provenance (docs/learned-skills.md#provenance).
    sourceKind: text("source_kind", { enum: ["agent", "user", "imported"] }).notNull(),
    sourceRef: text("source_ref"),
    reason: text("reason"),
    // `<team>/<name>@v<N>` of the skill this one was forked from (docs/learned-skills.md#forks-and-verification).
    forkedFrom: text("forked_from"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    archivedAt: timestamp("archived_at", { withTimezone: true }),
    // What a restore brings an archived skill back as.
    statusBeforeArchive: text("status_before_archive", { enum: ["draft", "active"] }),
    // A lead's pin (docs/learned-skills.md#pins): the version skill_view and the listing serve instead of the latest, and its description.
    pinnedVersion: integer("pinned_version"),
    pinnedDescription: text("pinned_description"),
  },
  (t) => [
    // One name, one place: a draft and an active skill never share a name; archived ones free it.
    uniqueIndex("learned_skills_live_name_key")
      .on(t.teamId, t.name)
      .where(sql`status <> 'archived'`),
  ],
);

export const learnedSkillVersions = pgTable(
  "learned_skill_versions",
  {
    skillId: integer("skill_id")
      .notNull()
      .references(() => learnedSkills.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    frontmatter: exactText("frontmatter").notNull(),
    body: exactText("body").notNull(),
    sha256: text("sha256").notNull(),
    authorUserId: integer("author_user_id").references(() => users.id, { onDelete: "set null" }),
    authorKeyId: integer("author_key_id"),
    authorSession: text("author_session"),
    reason: text("reason"),
    parentVersion: integer("parent_version"),
    // Set on a rollback: this version's content is that of v<revertOf>.
    revertOf: integer("revert_of"),
    // Verification belongs to a version: every new version starts unverified (docs/learned-skills.md#forks-and-verification).
    tier: text("tier", { enum: ["unverified", "reviewed", "verified"] })
      .notNull()
      .default("unverified"),
    review: jsonb("review").$type<ReviewReport>(),
    // The evaluation whose verdict (or a lead's override of it) made this version.
    evaluationId: integer("evaluation_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.skillId, t.version] })],
);

/**
 * Named labels on versions of a learned skill (docs/learned-skills.md#labels): a reader that asks for `staging` gets
 * the version labelled so, and its description in the listing. A label is on at most one version
 * of a skill, hence the key.
 */
export const learnedSkillLabels = pgTable(
  "learned_skill_labels",
  {
    skillId: integer("skill_id")
      .notNull()
      .references(() => learnedSkills.id, { onDelete: "cascade" }),
    label: text("label").notNull(),
    version: integer("version").notNull(),
    // The labelled version's description, so the listing for a label is read like the pinned one.
    description: text("description").notNull(),
    movedAt: timestamp("moved_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.skillId, t.label] })],
);

/** What a hostile reviewer did to a version before it was marked verified. */
export interface ReviewReport {
  reviewer: string;
  attempts: string;
  findings: string;
  verdict: string;
}

export const skillViews = pgTable(
  "skill_views",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    skillName: text("skill_name").notNull(),
    source: text("source").notNull(),
    version: integer("version").notNull(),
    keyId: integer("key_id"),
    sessionId: text("session_id"),
    viewedAt: timestamp("viewed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  // Reads go to the rollups (db/schema/usage.ts): this index serves a team's views by time (deleting a
  // team, trimming history) and, unlike one led by the skill name, takes each new view at its end.
  (t) => [index("skill_views_team_time_idx").on(t.teamId, t.viewedAt)],
);

/** One row per catalog change: the listing's size over time for the budget page. */
export const listingSnapshots = pgTable(
  "listing_snapshots",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    takenAt: timestamp("taken_at", { withTimezone: true }).notNull().defaultNow(),
    cause: text("cause").notNull(),
    chars: integer("chars").notNull(),
    cap: integer("cap").notNull(),
    total: integer("total").notNull(),
    shown: integer("shown").notNull(),
    droppedDescriptions: integer("dropped_descriptions").notNull(),
    droppedEntries: integer("dropped_entries").notNull(),
  },
  (t) => [index("listing_snapshots_team_time_idx").on(t.teamId, t.takenAt)],
);
