"use client";

/** A page that failed: say so inside the team's pages, with a way to try again; the details stay in the server's log. */
export default function TeamError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div role="alert" className="space-y-3 rounded-lg border border-red-200 bg-red-50 p-6">
      <h1 className="text-xl font-semibold text-red-900">This page could not be shown</h1>
      <p className="text-sm text-red-900">
        Something failed while loading it. If the database is unavailable it comes back on its own; try again in a moment.
      </p>
      <button onClick={reset} className="rounded-md bg-red-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-red-600">
        Try again
      </button>
    </div>
  );
}
