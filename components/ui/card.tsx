import type { ComponentProps, ReactNode } from "react";

/** The white box the dashboard is laid out in. */
export const CARD = "rounded-lg border border-slate-200 bg-white";

/**
 * A card: the white box, padded unless `flush` (a table or toolbar that runs to its edges), with an
 * optional title as its heading. Any other attribute (an aria-label, a test id) goes on the box.
 */
export function Card({
  title,
  flush = false,
  className = "",
  children,
  ...rest
}: Omit<ComponentProps<"div">, "title"> & { title?: ReactNode; flush?: boolean }) {
  return (
    <div className={`${CARD} ${flush ? "" : "p-4"} ${className}`} {...rest}>
      {title && <h2 className="mb-2 font-semibold">{title}</h2>}
      {children}
    </div>
  );
}
