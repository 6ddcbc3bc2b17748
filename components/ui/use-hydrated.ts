import { useSyncExternalStore } from "react";

const never = () => () => {};

/**
 * False in the server's HTML and during hydration, true once React owns the page. A button whose
 * only action is script (it opens a dialog, asks `confirm`, calls an action) is disabled until then:
 * a click that lands before hydration would otherwise do nothing and say nothing, which is what a
 * person on a slow connection (and a browser test on a busy machine) met on the versions table.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
