import { barHeights, sparklineText } from "@/lib/overview/sparkline";

const HEIGHT = 16;
const BAR = 2;

/**
 * A skill's views per day over 30 days as small bars, drawn on the server (no chart library for
 * fifty rows of thirty bars), on the table's shared `scale` (a full bar is that many views in a day);
 * the label says the figures for screen readers.
 */
export function ViewSparkline({ days, scale }: { days: number[]; scale: number }) {
  const heights = barHeights(days, HEIGHT, scale);
  return (
    <svg
      role="img"
      aria-label={sparklineText(days)}
      data-testid="sparkline"
      viewBox={`0 0 ${days.length * BAR} ${HEIGHT}`}
      width={days.length * BAR}
      height={HEIGHT}
      className="block"
    >
      <title>{sparklineText(days)}</title>
      <line x1={0} x2={days.length * BAR} y1={HEIGHT - 0.5} y2={HEIGHT - 0.5} className="stroke-slate-200" strokeWidth={1} />
      {heights.map((height, i) =>
        height === 0 ? null : (
          <rect
            key={i}
            x={i * BAR}
            y={HEIGHT - height}
            width={BAR - 0.5}
            height={height}
            className="fill-indigo-500"
            data-views={days[i]}
          />
        ),
      )}
    </svg>
  );
}
