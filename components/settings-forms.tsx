"use client";

import { useActionState, useState, useTransition } from "react";
import type { ActionResult } from "@/lib/actions/result";
import { ActionMessage } from "@/components/action-message";
import { useNotice } from "@/components/action-notice";
import type { Scope } from "@/lib/auth/scopes";

type FormAction = (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;

/**
 * Scopes nest (§11: admin ⊃ write ⊃ read), so a key gets one level of access, not a set of boxes;
 * a telemetry key (§9.1) sends agent telemetry and nothing else: the key for developers' settings.
 */
const ACCESS: { scope: Scope; label: string }[] = [
  { scope: "read", label: "read" },
  { scope: "write", label: "read + write" },
  { scope: "admin", label: "read + write + admin" },
  { scope: "telemetry", label: "telemetry only" },
];

/** Create a key; the name and access stay as chosen when the key is refused. */
export function CreateKeyForm({ action }: { action: FormAction }) {
  const [state, formAction, pending] = useActionState(action, null);
  const [name, setName] = useState("");
  const [access, setAccess] = useState<Scope>("read");
  const [, startTransition] = useTransition();
  return (
    <form
      // Submitted by hand, not as the form's action: React resets a form after its action, radio buttons included.
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        startTransition(() => formAction(data));
      }}
      className="space-y-3"
      aria-label="Create API key"
    >
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
            className="mt-1 block w-48 rounded-md border border-slate-300 px-2 py-1"
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
        <button
          disabled={pending}
          className="rounded-md bg-indigo-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-600 disabled:opacity-50"
        >
          Create key
        </button>
      </div>
      <ActionMessage state={state} />
      {state?.ok && state.key && (
        <div className="rounded-md border border-emerald-300 bg-emerald-50 p-3">
          <div className="text-xs font-medium text-emerald-900">New API key (shown once)</div>
          <code data-testid="new-key" className="block select-all break-all font-mono text-sm">
            {state.key}
          </code>
        </div>
      )}
    </form>
  );
}

export function RevokeKeyButton({ action, name }: { action: () => Promise<ActionResult>; name: string }) {
  return <RevokeButton action={action} question={`Revoke the key "${name}"? Agents using it will get 401 at once.`} />;
}

function RevokeButton({ action, question, label = "Revoke" }: { action: () => Promise<ActionResult>; question: string; label?: string }) {
  const [pending, startTransition] = useTransition();
  return (
    <button
      disabled={pending}
      className="rounded-md border border-red-300 px-2 py-0.5 text-xs text-red-700 hover:bg-red-50 disabled:opacity-50"
      onClick={() => {
        if (window.confirm(question)) startTransition(() => void action());
      }}
    >
      {label}
    </button>
  );
}

export function CreateInstallLinkForm({ action }: { action: FormAction }) {
  // Held here: React resets a form after its action, and a refused label must stay to be fixed.
  const [label, setLabel] = useState("");
  const [state, formAction, pending] = useActionState(async (previous: ActionResult | null, form: FormData) => {
    const outcome = await action(previous, form);
    if (outcome.ok) setLabel("");
    return outcome;
  }, null);
  return (
    <form action={formAction} className="space-y-3" aria-label="Create install link">
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
      <button
        disabled={pending}
        className="rounded-md bg-indigo-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-600 disabled:opacity-50"
      >
        Create install link
      </button>
      <ActionMessage state={state} />
      {state?.ok && state.installUrl && (
        <div className="rounded-md border border-emerald-300 bg-emerald-50 p-3">
          <div className="text-xs font-medium text-emerald-900">Install with (shown once)</div>
          <code data-testid="install-command" className="block select-all break-all font-mono text-sm">
            npx skills add {state.installUrl}
          </code>
        </div>
      )}
    </form>
  );
}

export function RevokeInstallLinkButton({ action, prefix }: { action: () => Promise<ActionResult>; prefix: string }) {
  return <RevokeButton action={action} question={`Revoke the install link ${prefix}…? Installs through it will get 401 at once.`} />;
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
  const [state, formAction, pending] = useActionState(action, null);
  // Held here, not as defaults: React resets a form after its action, and a refusal must keep what was typed.
  const [values, setValues] = useState({ cap: String(cap), descMax: String(descMax), loadHint });
  const field = (name: keyof typeof values) => ({
    name,
    value: values[name],
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => setValues({ ...values, [name]: event.target.value }),
  });
  return (
    <form action={formAction} className="space-y-3" aria-label="Listing settings">
      <div className="flex flex-wrap items-end gap-3">
        <label className="text-sm font-medium">
          Cap
          <input {...field("cap")} type="number" className="mt-1 block w-32 rounded-md border border-slate-300 px-2 py-1" />
        </label>
        <label className="text-sm font-medium">
          descMax
          <input {...field("descMax")} type="number" className="mt-1 block w-24 rounded-md border border-slate-300 px-2 py-1" />
        </label>
        <label className="text-sm font-medium">
          Load hint
          <input {...field("loadHint")} className="mt-1 block w-40 rounded-md border border-slate-300 px-2 py-1" />
        </label>
        <button
          disabled={pending}
          className="rounded-md bg-indigo-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-600 disabled:opacity-50"
        >
          Save
        </button>
      </div>
      <ActionMessage state={state} />
    </form>
  );
}

/**
 * A lead ends every dashboard session of a member: they are signed out everywhere at their next
 * request. It stays on the row when there is none left, so its message outlives the refresh.
 */
export function EndSessionsButton({ action, email, active }: { action: () => Promise<ActionResult>; email: string; active: number }) {
  const [pending, startTransition] = useTransition();
  const [state, setState] = useActionState((_previous: ActionResult | null, next: ActionResult) => next, null);
  return (
    <span className="inline-flex items-center gap-2">
      <button
        disabled={pending || active === 0}
        className="rounded-md border border-red-300 px-2 py-0.5 text-xs text-red-700 hover:bg-red-50 disabled:opacity-50"
        onClick={() => {
          if (window.confirm(`Sign ${email} out of every browser now?`)) startTransition(async () => setState(await action()));
        }}
      >
        End sessions
      </button>
      <ActionMessage state={state} />
    </span>
  );
}

const ROLE_OPTIONS = ["viewer", "editor", "lead"] as const;

/** A member's role, changed in place; the result says what happened (the last lead cannot be demoted). */
export function RoleForm({
  action,
  email,
  role,
}: {
  action: (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;
  email: string;
  role: string;
}) {
  const [state, formAction, pending] = useActionState(action, null);
  const [chosen, setChosen] = useState(role);
  return (
    <form action={formAction} className="flex flex-wrap items-center gap-2" aria-label={`Role of ${email}`}>
      <select
        name="role"
        value={chosen}
        onChange={(event) => setChosen(event.target.value)}
        aria-label={`Role of ${email}`}
        className="rounded-md border border-slate-300 px-1 py-0.5 text-sm"
      >
        {ROLE_OPTIONS.map((option) => (
          <option key={option}>{option}</option>
        ))}
      </select>
      <button disabled={pending} className="rounded-md border border-slate-300 px-2 py-0.5 text-xs hover:bg-slate-50 disabled:opacity-50">
        Save
      </button>
      <ActionMessage state={state} />
    </form>
  );
}

/** Removes a member; the row goes with them, so what happened is said in the page's notice. */
export function RemoveMemberButton({ action, email }: { action: () => Promise<ActionResult>; email: string }) {
  const notify = useNotice();
  const [state, formAction, pending] = useActionState(async () => {
    const outcome = await action();
    if (outcome.ok) notify(outcome.message);
    return outcome;
  }, null);
  return (
    <form
      action={formAction}
      onSubmit={(event) => {
        if (!window.confirm(`Remove ${email} from the team? Their sessions end at once.`)) event.preventDefault();
      }}
    >
      <button
        disabled={pending}
        className="rounded-md border border-red-300 px-2 py-0.5 text-xs text-red-700 hover:bg-red-50 disabled:opacity-50"
      >
        Remove
      </button>
      {state && !state.ok && <ActionMessage state={state} />}
    </form>
  );
}

/** Invite by email with a role; the one-time link is shown once. The inputs stay as typed when the invitation is refused. */
export function InviteForm({ action }: { action: FormAction }) {
  const [state, formAction, pending] = useActionState(action, null);
  const [email, setEmail] = useState("");
  const [role, setRole] = useState("viewer");
  return (
    <form action={formAction} className="space-y-3" aria-label="Invite a person">
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
            className="mt-1 block w-64 max-w-full rounded-md border border-slate-300 px-2 py-1"
          />
        </label>
        <label className="text-sm font-medium">
          Role
          <select
            name="role"
            value={role}
            onChange={(event) => setRole(event.target.value)}
            className="mt-1 block rounded-md border border-slate-300 px-2 py-1"
          >
            {ROLE_OPTIONS.map((option) => (
              <option key={option}>{option}</option>
            ))}
          </select>
        </label>
        <button
          disabled={pending}
          className="rounded-md bg-indigo-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-600 disabled:opacity-50"
        >
          Invite
        </button>
      </div>
      <ActionMessage state={state} />
      {state?.ok && state.inviteUrl && (
        <div className="rounded-md border border-emerald-300 bg-emerald-50 p-3">
          <div className="text-xs font-medium text-emerald-900">Send this link to the person (shown once)</div>
          <code data-testid="invite-url" className="block select-all break-all font-mono text-sm">
            {state.inviteUrl}
          </code>
        </div>
      )}
    </form>
  );
}

export function WithdrawInvitationButton({ action, email }: { action: () => Promise<ActionResult>; email: string }) {
  return (
    <RevokeButton action={action} question={`Withdraw the invitation of ${email}? Its link stops working at once.`} label="Withdraw" />
  );
}

/** The team's auto-promotion switch (§10). */
export function AutoPromoteForm({ action, autoPromote }: { action: FormAction; autoPromote: boolean }) {
  const [state, formAction, pending] = useActionState(action, null);
  const [on, setOn] = useState(autoPromote);
  return (
    <form action={formAction} className="space-y-3" aria-label="Auto-promotion">
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" name="autoPromote" checked={on} onChange={(event) => setOn(event.target.checked)} />
        Promote an amendment judged improved at once (off: it waits for a lead&apos;s approval)
      </label>
      <button
        disabled={pending}
        className="rounded-md bg-indigo-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-600 disabled:opacity-50"
      >
        Save
      </button>
      <ActionMessage state={state} />
    </form>
  );
}

/** What the team keeps of its agents' telemetry (§9.1): prompt texts or not, and how long raw events stay. */
export function TelemetrySettingsForm({
  action,
  storePrompts,
  telemetryDays,
}: {
  action: FormAction;
  storePrompts: boolean;
  telemetryDays: number;
}) {
  const [state, formAction, pending] = useActionState(action, null);
  // Held here, not as defaults: React resets a form after its action, and a refusal must keep what was typed.
  const [store, setStore] = useState(storePrompts);
  const [days, setDays] = useState(String(telemetryDays));
  return (
    <form action={formAction} className="space-y-3" aria-label="Telemetry settings">
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
            className="mt-1 block w-28 rounded-md border border-slate-300 px-2 py-1"
          />
        </label>
        <button
          disabled={pending}
          className="rounded-md bg-indigo-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-600 disabled:opacity-50"
        >
          Save
        </button>
      </div>
      <ActionMessage state={state} />
    </form>
  );
}
