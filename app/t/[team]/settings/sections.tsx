import { When } from "@/components/ui/when";
import Link from "next/link";
import type { listApiKeys } from "@/lib/auth/api-keys";
import type { InstallLinkRow } from "@/lib/teams/install-links";
import type { Team } from "@/lib/teams/teams";
import { ActionMessageSlot } from "@/components/action-message";
import { CredentialTable, RevokeCell } from "@/components/credential-table";
import { CreateInstallLinkForm } from "@/components/settings/create-install-link-form";
import { CreateKeyForm } from "@/components/settings/create-key-form";
import { ListingSettingsForm } from "@/components/settings/listing-settings-form";
import { RevokeConnectionButton, RevokeInstallLinkButton, RevokeKeyButton } from "@/components/settings/row-buttons";
import { SettingSwitchForm } from "@/components/settings/setting-switch-form";
import { TelemetrySettingsForm } from "@/components/settings/telemetry-settings-form";
import type { Connection } from "@/lib/oauth/connections";
import { ConnectTelemetry } from "@/components/connect-telemetry";
import { MemberKeyForm } from "@/components/member-key-form";
import type { MemberKey } from "@/lib/auth/member-keys";
import { Section } from "@/components/ui/section";
import {
  autoPromoteAction,
  requireReasonsAction,
  createInstallLinkAction,
  createKeyAction,
  makeMemberKeyAction,
  revokeConnectionAction,
  revokeInstallLinkAction,
  revokeKeyAction,
  updateListingSettingsAction,
  updateTelemetrySettingsAction,
} from "./actions";

type ApiKey = Awaited<ReturnType<typeof listApiKeys>>[number];

export function ApiKeysSection({ slug, keys }: { slug: string; keys: ApiKey[] }) {
  return (
    <Section
      id="api-keys"
      aria-label="API keys"
      title="API keys"
      description={
        <>
          Agents send a key as <code>Authorization: Bearer &lt;key&gt;</code>. Keys are stored hashed: a key is shown once, when it is
          created.
        </>
      }
    >
      <ActionMessageSlot>
        <CreateKeyForm action={createKeyAction.bind(null, slug)} revoked={keys.flatMap((key) => (key.revokedAt ? [key.id] : []))} />
        <CredentialTable label="API keys" region="Every API key" columns={["Name", "Key", "Scopes", "Created"]}>
          {keys.map((key) => (
            <tr key={key.id} className="border-t border-slate-100" data-key={key.name}>
              <td className="py-1.5">{key.name}</td>
              <td className="py-1.5 font-mono text-xs">{key.prefix}…</td>
              <td className="py-1.5">{key.scopes.join(", ")}</td>
              <td className="py-1.5 pr-3 whitespace-nowrap text-slate-600">
                <When at={key.createdAt} />
              </td>
              <RevokeCell revokedAt={key.revokedAt}>
                <RevokeKeyButton name={key.name} action={revokeKeyAction.bind(null, slug, key.id)} />
              </RevokeCell>
            </tr>
          ))}
        </CredentialTable>
      </ActionMessageSlot>
    </Section>
  );
}

/**
 * MCP clients members signed in with OAuth (docs/mcp.md#oauth): every member sees and revokes their own, a lead
 * everyone's. A connection also ends when its member leaves the team or drops below its access.
 */
export function ConnectionsSection({ slug, connections, isLead }: { slug: string; connections: Connection[]; isLead: boolean }) {
  return (
    <Section
      id="connections"
      aria-label="MCP clients signed in"
      title="MCP clients signed in"
      description={
        <>
          Clients connected with <code>claude mcp add --transport http skillgate &lt;url&gt;/api/mcp</code> (or a client&apos;s &ldquo;Add
          server&rdquo;) and a browser sign-in act as the member who signed in, with the access chosen then.{" "}
          {isLead ? "You see every member's." : "You see your own."}
        </>
      }
    >
      <ActionMessageSlot>
        {connections.length === 0 ? (
          <p className="text-sm text-slate-600" data-testid="no-connections">
            No client has signed in{isLead ? "" : " as you"} yet.
          </p>
        ) : (
          <CredentialTable
            label="MCP clients signed in"
            region="Every MCP client signed in"
            columns={["Client", "Member", "Access", "Signed in"]}
          >
            {connections.map((connection) => (
              <tr key={connection.id} className="border-t border-slate-100" data-connection={connection.id}>
                <td className="py-1.5">{connection.clientName}</td>
                <td className="py-1.5">{connection.email}</td>
                <td className="py-1.5">{connection.level}</td>
                <td className="py-1.5 whitespace-nowrap text-slate-600">
                  <When at={connection.createdAt} />
                </td>
                <RevokeCell revokedAt={connection.revokedAt}>
                  <RevokeConnectionButton
                    name={`${connection.clientName} (${connection.email})`}
                    action={revokeConnectionAction.bind(null, slug, connection.id)}
                  />
                </RevokeCell>
              </tr>
            ))}
          </CredentialTable>
        )}
      </ActionMessageSlot>
    </Section>
  );
}

/**
 * Every member's own telemetry key (lib/auth/member-keys.ts): what Claude Code sends with it counts
 * as theirs, even signed in with an API key, when Claude Code names people only by a hash.
 */
export function MemberKeySection({ slug, origin, live }: { slug: string; origin: string; live: MemberKey | null }) {
  return (
    <Section
      headingId="my-claude-code-key"
      title="My Claude Code key"
      description={
        <>
          Your own key for Claude Code&apos;s telemetry: what it sends counts as yours, so the team sees you by your email rather than as
          &ldquo;unknown person&rdquo;. It only sends telemetry and reads nothing. You hold one at a time; it stops working if you leave the
          team.
        </>
      }
    >
      <MemberKeyForm action={makeMemberKeyAction.bind(null, slug)} origin={origin} live={live && { id: live.id, prefix: live.prefix }} />
    </Section>
  );
}

export function InstallLinksSection({ slug, links }: { slug: string; links: InstallLinkRow[] }) {
  return (
    <Section
      headingId="install-links"
      title="Install links"
      description={
        <>
          For installers that cannot send a key: <code>npx skills add &lt;link&gt;</code> lists and installs the team&apos;s skills. A link
          reads the skills index and its files, nothing else; anyone who has it can, until you revoke it.
        </>
      }
    >
      <ActionMessageSlot>
        <CreateInstallLinkForm
          action={createInstallLinkAction.bind(null, slug)}
          revoked={links.flatMap((link) => (link.revokedAt ? [link.id] : []))}
        />
        {links.length > 0 && (
          <CredentialTable label="Install links" region="Every install link" columns={["Link", "Label", "Created", "By"]}>
            {links.map((link) => (
              <tr key={link.id} className="border-t border-slate-100" data-install-link={link.prefix}>
                <td className="py-1.5 pr-3 font-mono text-xs whitespace-nowrap">/i/{link.prefix}…</td>
                <td className="py-1.5 pr-3 text-slate-600">{link.label ?? "—"}</td>
                <td className="py-1.5 pr-3 whitespace-nowrap text-slate-600">
                  <When at={link.createdAt} />
                </td>
                <td className="py-1.5 pr-3 text-slate-600">{link.createdBy ?? "an API key"}</td>
                <RevokeCell revokedAt={link.revokedAt}>
                  <RevokeInstallLinkButton prefix={link.prefix} action={revokeInstallLinkAction.bind(null, slug, link.id)} />
                </RevokeCell>
              </tr>
            ))}
          </CredentialTable>
        )}
      </ActionMessageSlot>
    </Section>
  );
}

export function PromotionSection({ slug, team }: { slug: string; team: Pick<Team, "autoPromote" | "requireReasons"> }) {
  return (
    <Section
      headingId="promotion"
      title="Promotion"
      description="When an evaluation finds an amendment improved, it goes live at once, or waits for a lead to approve or reject it on the evaluation page. Either way it is in the history, as is every pin, label and rollback, with its reason."
    >
      <div className="space-y-5">
        <SettingSwitchForm
          action={autoPromoteAction.bind(null, slug)}
          name="autoPromote"
          title="Auto-promotion"
          label="Promote an amendment judged improved at once (off: it waits for a lead's approval)"
          on={team.autoPromote}
        />
        <SettingSwitchForm
          action={requireReasonsAction.bind(null, slug)}
          name="requireReasons"
          title="Reasons"
          label="Ask for a reason with every pin, unpin, label move and rollback (off: a reason is optional)"
          on={team.requireReasons}
        />
      </div>
    </Section>
  );
}

export function ListingSection({ slug, team }: { slug: string; team: Pick<Team, "listingCap" | "descMax" | "loadHint"> }) {
  return (
    <Section
      title="Listing"
      description="The cap and description cut of the listing agents get; try values first on the listing budget page."
    >
      <ListingSettingsForm
        action={updateListingSettingsAction.bind(null, slug)}
        cap={team.listingCap}
        descMax={team.descMax}
        loadHint={team.loadHint}
      />
    </Section>
  );
}

/** What the team keeps of its agents' telemetry (docs/telemetry.md#storage-and-retention), and how agents send it. */
export function TelemetrySection({
  slug,
  settings,
  origin,
}: {
  slug: string;
  settings: { storePrompts: boolean; telemetryDays: number };
  origin: string;
}) {
  return (
    <Section
      headingId="telemetry"
      title="Telemetry"
      description={
        <>
          Agents report each skill they use and each prompt (OpenTelemetry, at <code>{origin}/api/otlp</code>). Prompt texts are kept only
          while &ldquo;Store prompt texts&rdquo; is on, and only when agents send them (Claude Code: <code>OTEL_LOG_USER_PROMPTS=1</code>);
          otherwise a prompt is only counted. Raw events are kept for the days below; the daily counts per skill are kept for good.
        </>
      }
    >
      <TelemetrySettingsForm
        action={updateTelemetrySettingsAction.bind(null, slug)}
        storePrompts={settings.storePrompts}
        telemetryDays={settings.telemetryDays}
      />
      <details className="mt-4">
        <summary className="cursor-pointer text-sm font-medium">Connect Claude Code</summary>
        <div className="mt-2">
          <ConnectTelemetry slug={slug} origin={origin} />
        </div>
      </details>
    </Section>
  );
}

/** Prompt sets live on the Activation page, where runs use them; settings points there. */
export function PromptSetsLink({ slug }: { slug: string }) {
  return (
    <Section aria-label="Prompt sets" title="Prompt sets">
      <p className="text-sm text-slate-600">
        The prompts activation runs ask are kept and edited on the{" "}
        <Link className="text-indigo-700 underline" href={`/t/${slug}/activation#prompt-sets`}>
          Activation page
        </Link>
        .
      </p>
    </Section>
  );
}
