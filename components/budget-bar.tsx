"use client";

import { Bar, BarChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { BudgetSegment } from "@/lib/listing/budget";
import { CHART_COLORS, SEGMENT_COLORS, xTitle } from "@/components/ui/chart-theme";

/** One horizontal bar: the cap, split by what uses it. Its legend is the list of groups under it on the page, which wraps at any width. */
export function BudgetBar({ segments, cap }: { segments: BudgetSegment[]; cap: number }) {
  const used = segments.reduce((sum, s) => sum + s.chars, 0);
  const all = [...segments, ...(cap > used ? [{ key: "free", label: "Free", chars: cap - used }] : [])];
  const row = Object.fromEntries([["name", "cap"], ...all.map((s) => [s.key, s.chars])]);
  return (
    <div className="h-28 w-full" data-testid="budget-bar">
      <ResponsiveContainer>
        <BarChart data={[row]} layout="vertical" margin={{ left: 8, right: 24, top: 8, bottom: 24 }}>
          <XAxis
            type="number"
            domain={[0, Math.max(cap, used)]}
            tickFormatter={(v: number) => v.toLocaleString("en-US")}
            label={xTitle(`characters of the listing (cap ${cap.toLocaleString("en-US")})`)}
          />
          <YAxis type="category" dataKey="name" hide />
          <Tooltip
            formatter={(value, name) => [
              `${Number(value).toLocaleString("en-US")} characters`,
              all.find((s) => s.key === name)?.label ?? String(name),
            ]}
          />
          {all.map((segment) => (
            <Bar
              key={segment.key}
              dataKey={segment.key}
              stackId="cap"
              fill={SEGMENT_COLORS[segment.key] ?? CHART_COLORS.muted}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
