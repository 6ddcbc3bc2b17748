"use client";

import { useActionState, useState, type ReactNode } from "react";
import type { ActionResult } from "@/lib/actions/result";
import type { Scope } from "@/lib/auth/scopes";
import { ActionButton } from "@/components/action-button";
import { ActionMessage } from "@/components/action-message";
import { SubmitButton } from "@/components/ui/submit-button";
import { useKeptForm, type FormAction } from "@/components/ui/use-kept-form";

/**
 * Scopes nest (docs/teams-and-keys.md#api-keys-and-scopes: admin ⊃ write ⊃ read), so a key gets one level of access, not a set of boxes;
 * a telemetry key (docs/teams-and-keys.md#api-keys-and-scopes) sends agent telemetry and nothing else: the key for developers' settings.
 */
const ACCESS: { scope: Scope; label: string }[] = [
  { scope: "read", label: "read" },
  { scope: "write", label: "read + write" },
  { scope: "admin", label: "read + write + admin" },
  { scope: "telemetry", label: "telemetry only" },
];

const FIELD = "mt-1 block rounded-md border border-slate-300 px-2 py-1";

/** The green panel of a secret shown once, with what to know before using it; gone once what it shows is revoked (`live` false). */
export function ShownOnce({
  title,
  testId,
  live,
  note,
  children,
}: {
  title: string;
  testId: string;
  live: boolean;
  note?: ReactNode;
  children: string;
}) {
  if (!live) return null;
  return (
    <div className="rounded-md border border-emerald-300 bg-emerald-50 p-3">
      <div className="text-xs font-medium text-emerald-900">{title}</div>
      <code data-testid={testId} className="block font-mono text-sm break-all select-all">
        {children}
      </code>
      {note && <p className="mt-2 text-xs text-emerald-950">{note}</p>}
    </div>
  );
}

/**
 * Where an install link ends up (issue 28): the `skills` installer writes it, token included, into
 * the project's skills-lock.json, which is committed, and (unless told not to) into its telemetry.
 */
const INSTALL_LINK_NOTE = (
  <span data-testid="install-link-note">
    <code>npx skills add</code> writes this link, token included, into the project&apos;s <code>skills-lock.json</code>, which is meant to
    be committed: anyone who can read the repository can then read the team&apos;s skills through it until it is revoked. Give each
    repository a link of its own (for a label, if it should install that label&apos;s versions); when one leaks, revoke it below and make a
    new one. Run the installer with <code>DO_NOT_TRACK=1</code>, or it also sends the link to its telemetry service (add-skill.vercel.sh).
  </span>
);

/**
 * Create a key; the name and access stay as chosen when the key is refused, and the name is cleared
 * once it is made (the next key needs a name of its own). The new key shows until it is revoked.
 */
export function CreateKeyForm({ action, revoked }: { action: FormAction; revoked: number[] }) {
  const [name, setName] = useState("");
  const [access, setAccess] = useState<Scope>("read");
  const { state, pending, onSubmit } = useKeptForm(action, () => setName(""));
  return (
    <form onSubmit={onSubmit} className="space-y-3" aria-label="Create API key">
      <div className="flex flex-wrap items-end gap-3">
        <label className="text-sm font-medium">
          Name
          <input
            name="name"
            required
            maxLength={80}
            placeholder="ci-sync"
            value={name}
            onChange={(event) => setName(event.target.value)}
            className={`${FIELD} w-48`}
          />
        </label>
        <fieldset className="flex flex-wrap items-center gap-3 text-sm">
          <legend className="sr-only">Access</legend>
          {ACCESS.map(({ scope, label }) => (
            <label key={scope} className="flex items-center gap-1">
              <input type="radio" name="access" value={scope} checked={access === scope} onChange={() => setAccess(scope)} /> {label}
            </label>
          ))}
        </fieldset>
        <SubmitButton pending={pending}>Create key</SubmitButton>
      </div>
      <ActionMessage state={state} />
      {state?.ok && state.key && state.keyId !== undefined && (
        <ShownOnce title="New API key (shown once)" testId="new-key" live={!revoked.includes(state.keyId)}>
          {state.key}
        </ShownOnce>
      )}
    </form>
  );
}

export function RevokeKeyButton({ action, name }: { action: () => Promise<ActionResult>; name: string }) {
  return <RowButton action={action} confirm={`Revoke the key "${name}"? Agents using it will get 401 at once.`} label="Revoke" />;
}

export function RevokeConnectionButton({ action, name }: { action: () => Promise<ActionResult>; name: string }) {
  return <RowButton action={action} confirm={`Revoke ${name}? The client will have to sign in again.`} label="Revoke" />;
}

/** A row's button that asks first; the row changes once it has worked, so the section's slot says what happened. */
function RowButton({ action, confirm, label }: { action: () => Promise<ActionResult>; confirm: string; label: string }) {
  return <ActionButton action={action} confirm={confirm} label={label} tone="danger" size="xs" />;
}

/**
 * Create an install link, for the default versions or a label; a refused label stays to be fixed,
 * and the install command shows until the link is revoked.
 */
export function CreateInstallLinkForm({ action, revoked }: { action: FormAction; revoked: number[] }) {
  const [label, setLabel] = useState("");
  const { state, pending, onSubmit } = useKeptForm(action, () => setLabel(""));
  return (
    <form onSubmit={onSubmit} className="space-y-3" aria-label="Create install link">
      <label className="block text-sm">
        <span className="text-slate-700">For a label (optional: installs the versions with this label, e.g. staging)</span>
        <input
          name="label"
          value={label}
          onChange={(event) => setLabel(event.target.value)}
          placeholder="default versions"
          maxLength={64}
          className="mt-1 block w-full max-w-xs rounded-md border border-slate-300 px-2 py-1 text-sm"
        />
      </label>
      <SubmitButton pending={pending}>Create install link</SubmitButton>
      <ActionMessage state={state} />
      {state?.ok && state.installUrl && state.installLinkId !== undefined && (
        <ShownOnce
          title="Install with (shown once)"
          testId="install-command"
          live={!revoked.includes(state.installLinkId)}
          note={INSTALL_LINK_NOTE}
        >
          {`npx skills add ${state.installUrl}`}
        </ShownOnce>
      )}
    </form>
  );
}

export function RevokeInstallLinkButton({ action, prefix }: { action: () => Promise<ActionResult>; prefix: string }) {
  return (
    <RowButton action={action} confirm={`Revoke the install link ${prefix}…? Installs through it will get 401 at once.`} label="Revoke" />
  );
}

export function ListingSettingsForm({
  action,
  cap,
  descMax,
  loadHint,
}: {
  action: FormAction;
  cap: number;
  descMax: number;
  loadHint: string;
}) {
  const [values, setValues] = useState({ cap: String(cap), descMax: String(descMax), loadHint });
  const { state, pending, onSubmit } = useKeptForm(action);
  const field = (name: keyof typeof values) => ({
    name,
    value: values[name],
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => setValues({ ...values, [name]: event.target.value }),
  });
  return (
    <form onSubmit={onSubmit} className="space-y-3" aria-label="Listing settings">
      <div className="flex flex-wrap items-end gap-3">
        <label className="text-sm font-medium">
          Cap
          <input {...field("cap")} type="number" className={`${FIELD} w-32`} />
        </label>
        <label className="text-sm font-medium">
          descMax
          <input {...field("descMax")} type="number" className={`${FIELD} w-24`} />
        </label>
        <label className="text-sm font-medium">
          Load hint
          <input {...field("loadHint")} className={`${FIELD} w-40`} />
        </label>
        <SubmitButton pending={pending}>Save</SubmitButton>
      </div>
      <ActionMessage state={state} />
    </form>
  );
}

/**
 * A lead ends every dashboard session of a member: they are signed out everywhere at their next
 * request. It stays on the row when there is none left, so its message is said beside it.
 */
export function EndSessionsButton({ action, email, active }: { action: () => Promise<ActionResult>; email: string; active: number }) {
  const [state, formAction] = useActionState(action, null);
  return (
    <form
      action={formAction}
      onSubmit={(event) => {
        if (!window.confirm(`Sign ${email} out of every browser now?`)) event.preventDefault();
      }}
      className="inline-flex items-center gap-2"
    >
      <SubmitButton tone="danger" size="xs" disabled={active === 0}>
        End sessions
      </SubmitButton>
      <ActionMessage state={state} />
    </form>
  );
}

const ROLE_OPTIONS = ["viewer", "editor", "lead"] as const;

function RoleSelect({
  value,
  onChange,
  label,
  className = FIELD,
}: {
  value: string;
  onChange: (role: string) => void;
  label?: string;
  className?: string;
}) {
  return (
    <select name="role" value={value} onChange={(event) => onChange(event.target.value)} aria-label={label} className={className}>
      {ROLE_OPTIONS.map((option) => (
        <option key={option}>{option}</option>
      ))}
    </select>
  );
}

/** A member's role, changed in place; the result says what happened (the last lead cannot be demoted). */
export function RoleForm({ action, email, role }: { action: FormAction; email: string; role: string }) {
  const [chosen, setChosen] = useState(role);
  const { state, pending, onSubmit } = useKeptForm(action);
  return (
    <form onSubmit={onSubmit} className="flex flex-wrap items-center gap-2" aria-label={`Role of ${email}`}>
      <RoleSelect
        value={chosen}
        onChange={setChosen}
        label={`Role of ${email}`}
        className="rounded-md border border-slate-300 px-1 py-0.5 text-sm"
      />
      <SubmitButton tone="plain" size="xs" pending={pending}>
        Save
      </SubmitButton>
      <ActionMessage state={state} />
    </form>
  );
}

/** Removes a member; the row goes with them, so what happened is said at the top of the section. */
export function RemoveMemberButton({ action, email }: { action: () => Promise<ActionResult>; email: string }) {
  return <RowButton action={action} confirm={`Remove ${email} from the team? Their sessions end at once.`} label="Remove" />;
}

/**
 * Invite by email with a role; the one-time link is shown once. A sent invitation clears the email
 * and keeps the role (the next person is often invited as the same); a refused one keeps both.
 */
export function InviteForm({ action }: { action: FormAction }) {
  const [email, setEmail] = useState("");
  const [role, setRole] = useState("viewer");
  const { state, pending, onSubmit } = useKeptForm(action, () => setEmail(""));
  return (
    <form onSubmit={onSubmit} className="space-y-3" aria-label="Invite a person">
      <div className="flex flex-wrap items-end gap-3">
        <label className="text-sm font-medium">
          Email
          <input
            name="email"
            type="email"
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            placeholder="colleague@example.com"
            className={`${FIELD} w-64 max-w-full`}
          />
        </label>
        <label className="text-sm font-medium">
          Role
          <RoleSelect value={role} onChange={setRole} />
        </label>
        <SubmitButton pending={pending}>Invite</SubmitButton>
      </div>
      <ActionMessage state={state} />
      {state?.ok && state.inviteUrl && (
        <ShownOnce title="Send this link to the person (shown once)" testId="invite-url" live>
          {state.inviteUrl}
        </ShownOnce>
      )}
    </form>
  );
}

export function WithdrawInvitationButton({ action, email }: { action: () => Promise<ActionResult>; email: string }) {
  return <RowButton action={action} confirm={`Withdraw the invitation of ${email}? Its link stops working at once.`} label="Withdraw" />;
}

/**
 * One of the team's on/off settings (docs/teams-and-keys.md#team-settings) — auto-promotion, reasons for decisions — as a checkbox
 * and a Save: `name` is the field the action reads, `label` what the box says.
 */
export function SettingSwitchForm({
  action,
  name,
  title,
  label,
  on: initial,
}: {
  action: FormAction;
  name: string;
  /** The form's accessible name. */
  title: string;
  label: string;
  on: boolean;
}) {
  const [on, setOn] = useState(initial);
  const { state, pending, onSubmit } = useKeptForm(action);
  return (
    <form onSubmit={onSubmit} className="space-y-3" aria-label={title}>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" name={name} checked={on} onChange={(event) => setOn(event.target.checked)} />
        {label}
      </label>
      <SubmitButton pending={pending}>Save</SubmitButton>
      <ActionMessage state={state} />
    </form>
  );
}

/** What the team keeps of its agents' telemetry (docs/telemetry.md#storage-and-retention): prompt texts or not, and how long raw events stay. */
export function TelemetrySettingsForm({
  action,
  storePrompts,
  telemetryDays,
}: {
  action: FormAction;
  storePrompts: boolean;
  telemetryDays: number;
}) {
  const [store, setStore] = useState(storePrompts);
  const [days, setDays] = useState(String(telemetryDays));
  const { state, pending, onSubmit } = useKeptForm(action);
  return (
    <form onSubmit={onSubmit} className="space-y-3" aria-label="Telemetry settings">
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" name="storePrompts" checked={store} onChange={(event) => setStore(event.target.checked)} />
        Store prompt texts (to build prompt sets from what people really ask)
      </label>
      <div className="flex flex-wrap items-end gap-3">
        <label className="text-sm font-medium">
          Keep raw events for (days)
          <input
            name="telemetryDays"
            type="number"
            min={1}
            max={3650}
            value={days}
            onChange={(event) => setDays(event.target.value)}
            className={`${FIELD} w-28`}
          />
        </label>
        <SubmitButton pending={pending}>Save</SubmitButton>
      </div>
      <ActionMessage state={state} />
    </form>
  );
}
