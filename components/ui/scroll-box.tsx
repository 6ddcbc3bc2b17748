"use client";

import { useEffect, useRef, useState, type ReactNode } from "react";

/** Which way there is more to see: measured, for a box that only overflows on a narrow screen. */
interface Overflow {
  left: boolean;
  right: boolean;
}

const NONE: Overflow = { left: false, right: false };

function overflowOf(box: HTMLElement): Overflow {
  const hidden = box.scrollWidth - box.clientWidth;
  // A pixel of rounding is not more to see.
  return { left: box.scrollLeft > 1, right: box.scrollLeft < hidden - 1 };
}

/**
 * A box that scrolls sideways when what it holds is wider than it (a table on a phone, docs/dashboard.md#phones-and-accessibility), and
 * says so: "Scroll sideways for more →" above it while anything is out of view, and a shade on each
 * edge that has more beyond it. The box is a named region that takes focus, so it scrolls from the
 * keyboard too (axe: scrollable-region-focusable); it is positioned, so screen-reader-only labels
 * (absolutely placed) stay inside it instead of widening the page.
 */
export function ScrollBox({
  label,
  cueClassName = "",
  className = "",
  children,
}: {
  label: string;
  /** Where the cue sits in its card: a table that runs to the card's edges indents it. */
  cueClassName?: string;
  className?: string;
  children: ReactNode;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [overflow, setOverflow] = useState<Overflow>(NONE);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => setOverflow(overflowOf(element));
    // The box narrows with the window; what it holds widens when its rows change.
    const resizes = new ResizeObserver(measure);
    resizes.observe(element);
    if (element.firstElementChild) resizes.observe(element.firstElementChild);
    return () => resizes.disconnect();
  }, []);
  const shade = "pointer-events-none absolute inset-y-0 w-6 from-slate-900/20 to-transparent";
  return (
    // A grid or flex item as wide as its content would widen the page: only the box inside may be that wide.
    <div className={`min-w-0 ${className}`}>
      {(overflow.left || overflow.right) && (
        <p className={`mb-1 text-right text-xs text-slate-500 ${cueClassName}`} aria-hidden="true" data-testid="scroll-cue">
          Scroll sideways for more →
        </p>
      )}
      <div className="relative">
        <div
          ref={box}
          role="region"
          aria-label={label}
          tabIndex={0}
          onScroll={(event) => setOverflow(overflowOf(event.currentTarget))}
          className="table-scroll relative overflow-x-auto"
        >
          {children}
        </div>
        {overflow.left && <div className={`${shade} left-0 bg-linear-to-r`} data-testid="scroll-shade-left" />}
        {overflow.right && <div className={`${shade} right-0 bg-linear-to-l`} data-testid="scroll-shade-right" />}
      </div>
    </div>
  );
}
