"use client";

import { createContext, useContext, useState, type ReactNode } from "react";
import type { ActionResult } from "@/lib/actions/result";

/**
 * What an action answered, said the one way every action form says it: role="status" when done,
 * role="alert" when refused (read out at once), and data-action-message naming which.
 */
export function ActionMessage({ state, children }: { state: ActionResult | null; children?: ReactNode }) {
  if (!state) return null;
  return (
    <p
      role={state.ok ? "status" : "alert"}
      data-action-message={state.ok ? "done" : "refused"}
      className={`rounded-md px-2 py-1 text-sm ${state.ok ? "bg-emerald-50 text-emerald-800" : "bg-red-50 text-red-800"}`}
    >
      {state.message}
      {children}
    </p>
  );
}

const SlotContext = createContext<((result: ActionResult) => void) | null>(null);

/**
 * The top of a section, where an action that takes its own row or form away (remove a member,
 * revoke, approve) says what it did. The message is held here, above the rows, so it outlives them
 * and the page's refresh: place the slot where it stays when the action is done.
 */
export function ActionMessageSlot({ children }: { children: ReactNode }) {
  const [state, setState] = useState<ActionResult | null>(null);
  return (
    <SlotContext value={setState}>
      {state && (
        <div className="mb-3">
          <ActionMessage state={state} />
        </div>
      )}
      {children}
    </SlotContext>
  );
}

/** Says a result in the nearest slot above. */
export function useActionMessageSlot(): (result: ActionResult) => void {
  const say = useContext(SlotContext);
  if (!say) throw new Error("an action that takes its own row away needs an ActionMessageSlot above it");
  return say;
}
