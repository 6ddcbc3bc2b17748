"use client";

import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

export interface ListingHistoryPoint {
  at: string;
  chars: number;
  cap: number;
  cause: string;
}

/** The listing's length after each catalog change, against the cap in force then. */
export function ListingHistoryChart({ points }: { points: ListingHistoryPoint[] }) {
  return (
    <div className="h-64 w-full" data-testid="listing-history">
      <ResponsiveContainer>
        <LineChart data={points} margin={{ left: 8, right: 24, top: 8, bottom: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
          <XAxis dataKey="at" tickFormatter={(v: string) => v.slice(5, 10)} />
          <YAxis tickFormatter={(v: number) => v.toLocaleString("en-US")} />
          <Tooltip labelFormatter={(v) => String(v).slice(0, 16).replace("T", " ")} />
          <Line type="stepAfter" dataKey="chars" name="characters" stroke="#4338ca" strokeWidth={2} isAnimationActive={false} />
          <Line type="stepAfter" dataKey="cap" name="cap" stroke="#dc2626" strokeDasharray="6 4" dot={false} isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
