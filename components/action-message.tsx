import type { ActionResult } from "@/lib/actions/result";

/** What a server action answered, as a status line under its form: green when done, red when refused. */
export function ActionMessage({ state }: { state: ActionResult | null }) {
  if (!state) return null;
  return (
    <p role="status" className={`text-sm ${state.ok ? "text-emerald-700" : "text-red-700"}`}>
      {state.message}
    </p>
  );
}
