"use client";

import { createContext, useContext, type ReactNode } from "react";

/** A team the person is in, as a link names it. */
export interface TeamLink {
  slug: string;
  name: string;
}

/** Who looks at a team's address: whether they are in that team, and the teams they are in. */
export interface VisitorView {
  team: string;
  member: boolean;
  teams: TeamLink[];
}

const VisitorContext = createContext<VisitorView | null>(null);

/** Set by the team's layout, so its not-found page can tell "nothing here" from "not your team" (a not-found page gets no props). */
export function VisitorProvider({ value, children }: { value: VisitorView; children: ReactNode }) {
  return <VisitorContext.Provider value={value}>{children}</VisitorContext.Provider>;
}

export function useVisitor(): VisitorView {
  const visitor = useContext(VisitorContext);
  if (!visitor) throw new Error("useVisitor outside a team's layout");
  return visitor;
}
