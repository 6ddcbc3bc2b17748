"use client";

import { createContext, useCallback, useContext, useEffect, useState } from "react";

const NoticeContext = createContext<(message: string) => void>(() => {});

/** How long a confirmation stays on screen. */
const SHOWN_MS = 10_000;

/**
 * Says what an action did, in one place that outlives the page's refresh: a button that promotes a
 * draft or pins a version is gone once it has worked, and its confirmation must not go with it.
 * The region is always there (empty when quiet), so screen readers announce what lands in it.
 */
export function NoticeProvider({ children }: { children: React.ReactNode }) {
  const [notice, setNotice] = useState<{ message: string; id: number } | null>(null);
  // One function for the provider's life: a form that says its result from an effect must not see a new one each render.
  const notify = useCallback((message: string) => setNotice({ message, id: Date.now() }), []);
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), SHOWN_MS);
    return () => clearTimeout(timer);
  }, [notice]);
  return (
    <NoticeContext value={notify}>
      {children}
      <div
        role="status"
        aria-live="polite"
        className="pointer-events-none fixed inset-x-4 bottom-4 z-20 flex justify-center sm:justify-end"
      >
        {notice && (
          <p
            key={notice.id}
            data-testid="notice"
            className="pointer-events-auto max-w-md rounded-md bg-emerald-800 px-4 py-2 text-sm text-white shadow-lg"
          >
            {notice.message}
          </p>
        )}
      </div>
    </NoticeContext>
  );
}

export function useNotice(): (message: string) => void {
  return useContext(NoticeContext);
}
