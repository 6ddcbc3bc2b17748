import { costPerPrompt, MIN_TOOL_CALLS, wilson, type Comparison, type Production, type Rate } from "../usage/production";

/**
 * How the skill page says a version's production figures (docs/decisions/production-page.md): rates
 * with their intervals, money and time a person reads at a glance, and the one sentence that
 * answers "did vN make things worse than vN-1?". Pure.
 */

const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

/** "18.0% (12.1–25.9%)": a failure rate with its 95% interval; "—" with no tool call. */
export function rateWithInterval(rate: Rate | null): string {
  if (!rate) return "—";
  return `${percent(rate.value)} (${(rate.low * 100).toFixed(1)}–${percent(rate.high)})`;
}

/** The proactive activations among `prompts` as a rate with its 95% interval; null with no prompt. */
export function chosenRate(chosen: number, prompts: number): Rate | null {
  // A prompt can activate a skill more than once: the rate is of prompts, at most all of them.
  return wilson(Math.min(chosen, prompts), prompts);
}

/**
 * "33.3 (9.7–70.0)": chosen by the model per 100 prompts, with its 95% interval, so 2 of 6 prompts
 * does not read as sure as 140 of 420; "—" with no prompt.
 */
export function per100WithInterval(rate: Rate | null): string {
  if (!rate) return "—";
  const per100 = (share: number) => (share * 100).toFixed(1);
  return `${per100(rate.value)} (${per100(rate.low)}–${per100(rate.high)})`;
}

/** Dollars per prompt it was loaded in: cents to three places below a dime, so small costs still differ. */
export function costPerActivation(production: Production): string {
  const cost = costPerPrompt(production);
  if (cost === null) return "—";
  return `$${cost.toFixed(cost < 0.1 ? 3 : 2)}`;
}

export function tokensPerActivation(production: Production): string {
  return production.prompts === 0 ? "—" : Math.round(production.tokens / production.prompts).toLocaleString("en-US");
}

/** "42 s", "3 min 05 s", "850 ms"; "—" with no prompt. */
export function duration(ms: number | null): string {
  if (ms === null) return "—";
  if (ms < 1000) return `${ms} ms`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, "0")} s`;
}

/** The upper end of the interval bars' scale: the highest interval end, rounded up to a tenth (at least 10%), so rows compare. */
export function intervalScale(rates: readonly (Rate | null)[]): number {
  const highest = Math.max(0, ...rates.map((rate) => rate?.high ?? 0));
  return Math.min(1, Math.max(0.1, Math.ceil(highest * 10) / 10));
}

interface Compared {
  version: number;
  production: Production;
}

const failed = ({ production }: Compared) =>
  `${rateWithInterval(production.failureRate)} of ${production.toolCalls} call${production.toolCalls === 1 ? "" : "s"}`;

/**
 * The answer to "did v2 make things worse than v1?", from the comparison the data layer made:
 * worse or better only when the two intervals are apart, and "n too small" said plainly, with the
 * minimum, below it.
 */
export function comparisonSentence(comparison: Comparison, current: Compared, previous: Compared): string {
  const [now, before] = [`v${current.version}`, `v${previous.version}`];
  if (comparison === "n too small") {
    const calls = (c: Compared) => `${c.production.toolCalls} tool call${c.production.toolCalls === 1 ? "" : "s"}`;
    return `n too small: ${now} has ${calls(current)} and ${before} has ${calls(previous)}; comparing their failure rates needs at least ${MIN_TOOL_CALLS} with each.`;
  }
  if (comparison === "higher")
    return `Yes: tools failed more often with ${now}, ${failed(current)}, than with ${before}, ${failed(previous)}; the intervals do not overlap.`;
  if (comparison === "lower")
    return `No, better: tools failed less often with ${now}, ${failed(current)}, than with ${before}, ${failed(previous)}; the intervals do not overlap.`;
  return `No clear difference: tools failed in ${failed(current)} with ${now} and ${failed(previous)} with ${before}; the intervals overlap.`;
}
