"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/** Re-renders the page every second while something runs on the server; the page itself reads the progress. */
export function LiveRefresh({ running }: { running: boolean }) {
  const router = useRouter();
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => router.refresh(), 1000);
    return () => clearInterval(timer);
  }, [running, router]);
  return null;
}
