import type { ComponentProps, ReactNode } from "react";
import { CARD } from "./card";

/**
 * A section of a page in a card, with its heading and an optional line saying what it is for.
 * Sections are found by their name (browser tests, screen readers): give an `aria-label`, or a
 * `headingId`, which names the section by its heading (aria-labelledby) and gives the heading that id.
 * Without a title, the section brings its own heading (one inside a filter form, say).
 */
export function Section({
  title,
  headingId,
  description,
  flush = false,
  className = "",
  children,
  ...rest
}: Omit<ComponentProps<"section">, "title"> & {
  title?: ReactNode;
  headingId?: string;
  description?: ReactNode;
  flush?: boolean;
}) {
  return (
    <section className={`${CARD} ${flush ? "" : "p-4"} ${className}`} aria-labelledby={headingId} {...rest}>
      {title && (
        <h2 id={headingId} className={`${description ? "mb-1" : "mb-2"} font-semibold`}>
          {title}
        </h2>
      )}
      {description && <p className="mb-3 text-sm text-slate-500">{description}</p>}
      {children}
    </section>
  );
}
