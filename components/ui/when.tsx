import { relativeTime, utcMinute } from "@/lib/format";

/**
 * A moment as people read it: how long ago ("2 h ago"), with its exact UTC minute on hover and in
 * `dateTime`. Said against the time of rendering, which on the server is the request's; where a
 * client component renders it again at hydration a minute may have turned, so the text alone may
 * differ from the server's without React treating it as a mismatch.
 */
export function When({ at, className }: { at: Date | string; className?: string }) {
  const date = new Date(at);
  return (
    <time dateTime={date.toISOString()} title={utcMinute(date)} className={className} suppressHydrationWarning>
      {relativeTime(date, new Date())}
    </time>
  );
}
