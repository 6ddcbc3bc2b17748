"use client";

import { useLinkStatus } from "next/link";

/**
 * A bar under a link that pulses from the click until the next page is on the screen, so a click on
 * a page that is slow to come (cold, or a busy database) answers at once. Inside a `relative` link;
 * always rendered and absolutely placed, so nothing moves when it shows.
 */
export function LinkPending() {
  const { pending } = useLinkStatus();
  return (
    <span
      aria-hidden="true"
      data-testid="link-pending"
      data-pending={pending ? "true" : undefined}
      className={`absolute inset-x-2 bottom-0 h-0.5 rounded-full bg-current transition-opacity ${pending ? "animate-pulse opacity-100" : "opacity-0"}`}
    />
  );
}
