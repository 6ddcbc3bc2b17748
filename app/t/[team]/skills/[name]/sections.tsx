import type { LearnedRow } from "@/lib/learned/store";
import type { SkillDetail } from "@/lib/pages/skill-page";
import { markdownToHtml } from "@/lib/skills/markdown-html";
import { parseSkillMd } from "@/lib/skills/skill-md";
import type { SkillContent } from "@/lib/skills/view";
import { withQuery } from "@/lib/http/params";
import { DiffView } from "@/components/diff-view";
import type { DiffViewChoice } from "@/components/diff/view-choice";
import { ActionButton } from "@/components/action-button";
import { ActionMessageSlot } from "@/components/action-message";
import { AmendmentsPanel } from "@/components/skill/amendments-panel";
import { BodyTabs } from "@/components/skill/body-tabs";
import { ForkForm } from "@/components/skill/fork-form";
import { SkillEditor } from "@/components/skill/skill-editor";
import { VerifyForm } from "@/components/skill/verify-form";
import { VersionCaption } from "@/components/skill/version-caption";
import { VersionsTable } from "@/components/skill/versions-table";
import { Card } from "@/components/ui/card";
import { Section } from "@/components/ui/section";
import {
  archiveAction,
  forkAction,
  generateAmendmentAction,
  moveLabelAction,
  pinAction,
  promoteAction,
  proposeAmendmentAction,
  removeLabelAction,
  rollbackAction,
  saveSkillAction,
  unpinAction,
  verifyAction,
} from "./actions";
import {
  approveAmendmentAction,
  evaluateAmendmentAction,
  overrideAmendmentAction,
  rejectAmendmentAction,
  reproposeAmendmentAction,
} from "../../amendment-actions";

type Query = Record<string, string | string[] | undefined>;

/** What an editor can do to the skill as a whole: promote a draft, archive, fork, set the tier of its version. */
export function SkillActions({
  slug,
  name,
  learned,
  version,
  editableTeams,
}: {
  slug: string;
  name: string;
  learned: LearnedRow | null;
  version: number;
  /** The teams the fork can go to: those the person edits. */
  editableTeams: string[];
}) {
  return (
    <Section aria-label="Actions" className="space-y-3">
      <div className="flex flex-wrap items-start gap-3">
        {learned?.status === "draft" && (
          <ActionButton
            label="Promote"
            tone="primary"
            confirm={`Promote the draft "${name}"? It joins the listing every agent gets.`}
            action={promoteAction.bind(null, slug, name)}
          />
        )}
        {learned && (
          <ActionButton
            label="Archive"
            tone="danger"
            confirm={`Archive "${name}"? It leaves the listing; its history is kept and a lead can restore it.`}
            action={archiveAction.bind(null, slug, name)}
          />
        )}
      </div>
      <details>
        <summary className="cursor-pointer text-sm font-medium">Fork into a new learned skill</summary>
        <div className="mt-2">
          <ForkForm source={name} teams={editableTeams} current={slug} action={forkAction.bind(null, slug, name)} />
        </div>
      </details>
      {learned && (
        <details>
          <summary className="cursor-pointer text-sm font-medium">Set the verification tier of v{version}</summary>
          <div className="mt-2">
            <VerifyForm version={version} action={verifyAction.bind(null, slug, name)} />
          </div>
        </details>
      )}
    </Section>
  );
}

/** The body, rendered or raw as the query asks (`?body=raw`). */
export function BodySection({ query, content }: { query: Query; content: SkillContent }) {
  const view = query.body === "raw" ? "raw" : "rendered";
  return (
    <Section aria-label="Body">
      <BodyTabs
        view={view}
        hrefs={{ rendered: withQuery(query, { body: undefined }), raw: withQuery(query, { body: "raw" }) }}
        html={view === "rendered" ? markdownToHtml(content.body) : null}
        raw={view === "raw" ? content.frontmatter + content.body : null}
      />
    </Section>
  );
}

/** The editor for a learned skill, on its latest version; a banner when agents are pinned to an older one. */
export function EditSection({
  slug,
  name,
  served,
  editing,
  latest,
  descMax,
  diffView,
}: {
  slug: string;
  name: string;
  /** The version agents get. */
  served: SkillContent;
  /** The latest version, which people edit: the served one unless the skill is pinned. */
  editing: SkillContent;
  latest: number;
  descMax: number;
  /** The page's choice of view, for the editor's diffs. */
  diffView: DiffViewChoice;
}) {
  const { fields } = parseSkillMd(editing.frontmatter + editing.body);
  return (
    <Section aria-label="Edit" title="Edit">
      {served.skill.pinned && (
        <p className="mb-3 rounded-md bg-violet-50 px-3 py-2 text-sm text-violet-950" data-testid="pinned-banner">
          Pinned: agents get v{served.version} until a lead unpins it. You are editing the latest version, v{latest}; what you save becomes
          v{latest + 1}, which agents get once the skill is unpinned.
        </p>
      )}
      <SkillEditor
        name={name}
        version={editing.version}
        fields={fields as Record<string, unknown> & { name: string; description: string }}
        currentText={editing.frontmatter + editing.body}
        descMax={descMax}
        save={saveSkillAction.bind(null, slug, name)}
        propose={proposeAmendmentAction.bind(null, slug, name)}
        diffView={diffView}
      />
    </Section>
  );
}

/** Every version with its evidence, and two of them side by side; a lead of a learned skill pins and rolls back here. */
export function VersionsSection({
  slug,
  name,
  detail,
  latest,
  lead,
  diffView,
}: {
  slug: string;
  name: string;
  detail: SkillDetail;
  latest: number;
  /** Set for a lead on a learned skill, who may pin, unpin, label and roll back: whether the team asks for a reason with each. */
  lead: { reasonRequired: boolean } | null;
  diffView: DiffViewChoice;
}) {
  const mayChange = lead !== null;
  const { compare, content } = detail;
  const compareTo = compare && detail.versions.find((v) => v.version === compare.to);
  return (
    <Section aria-label="Versions" title="Versions">
      <ActionMessageSlot>
        <VersionsTable
          slug={slug}
          name={name}
          versions={detail.versions}
          evidence={detail.evidence}
          compare={compare ? { from: compare.from, to: compare.to } : null}
          rollback={mayChange ? rollbackAction.bind(null, slug, name, latest) : null}
          pinned={content.skill.pinned ? content.skill.version : null}
          pinReason={detail.agents.pin?.reason ?? null}
          reasonRequired={lead?.reasonRequired ?? false}
          pin={mayChange ? pinAction.bind(null, slug, name) : null}
          unpin={mayChange ? unpinAction.bind(null, slug, name) : null}
          moveLabel={mayChange ? moveLabelAction.bind(null, slug, name) : null}
          removeLabel={mayChange ? removeLabelAction.bind(null, slug, name) : null}
        />
      </ActionMessageSlot>
      {compare && (
        <div className="mt-4 scroll-mt-4" id="diff">
          {compareTo && <VersionCaption slug={slug} version={compareTo} />}
          <DiffView rows={compare.rows} left={`v${compare.from}`} right={`v${compare.to}`} choice={diffView} />
        </div>
      )}
    </Section>
  );
}

export function DescriptionLint({ findings }: { findings: SkillDetail["lint"] }) {
  return (
    <Card aria-label="Lint" title="Description lint">
      {findings.length === 0 ? (
        <p className="text-sm text-emerald-700">[lint] clean</p>
      ) : (
        <ul className="space-y-1 font-mono text-xs text-amber-800">
          {findings.map((finding) => (
            <li key={finding.rule}>
              [lint] {finding.rule}: {finding.message}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

export function SupportingFiles({ files }: { files: SkillDetail["files"] }) {
  return (
    <Card aria-label="Supporting files" title="Supporting files">
      {files.length === 0 ? (
        <p className="text-sm text-slate-500">None.</p>
      ) : (
        <ul className="font-mono text-xs">
          {files.map((file) => (
            <li key={file.path}>
              {file.path} <span className="text-slate-500">({file.size.toLocaleString("en-US")} bytes)</span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

export function AmendmentsSection({
  slug,
  name,
  amendments,
  canEdit,
  isLead,
  hasModel,
  failuresSeen,
  appliesHere,
}: {
  slug: string;
  name: string;
  amendments: SkillDetail["amendments"];
  canEdit: boolean;
  isLead: boolean;
  hasModel: boolean;
  /** Whether the skill has failed or partial runs recorded: what a generated amendment is written from. */
  failuresSeen: boolean;
  appliesHere: boolean;
}) {
  return (
    <Section aria-label="Amendments" title="Amendments">
      {canEdit && hasModel && !failuresSeen && (
        <p className="text-sm text-slate-600" data-testid="no-failures">
          No failures observed yet: an amendment is generated from failing runs.
        </p>
      )}
      <ActionMessageSlot>
        <AmendmentsPanel
          slug={slug}
          amendments={amendments}
          canEdit={canEdit}
          isLead={isLead}
          hasModel={hasModel}
          appliesHere={appliesHere}
          actions={{
            evaluate: evaluateAmendmentAction.bind(null, slug),
            approve: approveAmendmentAction.bind(null, slug),
            reject: rejectAmendmentAction.bind(null, slug),
            override: overrideAmendmentAction.bind(null, slug),
            repropose: reproposeAmendmentAction.bind(null, slug),
            // Offered only with failures to learn from: without, the model would be refused (said above instead).
            generate: canEdit && failuresSeen ? generateAmendmentAction.bind(null, slug, name) : null,
          }}
        />
      </ActionMessageSlot>
    </Section>
  );
}
