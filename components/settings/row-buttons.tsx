"use client";

import type { ActionResult } from "@/lib/actions/result";
import { ActionButton } from "@/components/action-button";

/**
 * The buttons on the rows of the settings' tables: each asks first, and takes its row away (or
 * changes it) once it has worked, so what happened is said in the section's slot (ActionButton).
 */
function RowButton({ action, confirm, label }: { action: () => Promise<ActionResult>; confirm: string; label: string }) {
  return <ActionButton action={action} confirm={confirm} label={label} tone="danger" size="xs" />;
}

export function RevokeKeyButton({ action, name }: { action: () => Promise<ActionResult>; name: string }) {
  return <RowButton action={action} confirm={`Revoke the key "${name}"? Agents using it will get 401 at once.`} label="Revoke" />;
}

export function RevokeConnectionButton({ action, name }: { action: () => Promise<ActionResult>; name: string }) {
  return <RowButton action={action} confirm={`Revoke ${name}? The client will have to sign in again.`} label="Revoke" />;
}

export function RevokeInstallLinkButton({ action, prefix }: { action: () => Promise<ActionResult>; prefix: string }) {
  return (
    <RowButton action={action} confirm={`Revoke the install link ${prefix}…? Installs through it will get 401 at once.`} label="Revoke" />
  );
}

/** Removes a member; the row goes with them, so what happened is said at the top of the section. */
export function RemoveMemberButton({ action, email }: { action: () => Promise<ActionResult>; email: string }) {
  return <RowButton action={action} confirm={`Remove ${email} from the team? Their sessions end at once.`} label="Remove" />;
}

export function WithdrawInvitationButton({ action, email }: { action: () => Promise<ActionResult>; email: string }) {
  return <RowButton action={action} confirm={`Withdraw the invitation of ${email}? Its link stops working at once.`} label="Withdraw" />;
}
