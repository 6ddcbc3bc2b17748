import type { UnlistedActivations } from "@/lib/usage/activations";

/** How many names outside the registry the overview shows; the rest are counted. */
const SHOWN = 8;

/**
 * Activations the table has no row for (docs/telemetry.md#activations): custom skills whose names the agent hid, and names
 * the catalog does not hold — skills people use that the registry does not govern.
 */
export function UnlistedActivationsNotice({ unlisted }: { unlisted: UnlistedActivations }) {
  const { unnamed, outsideRegistry } = unlisted;
  if (unnamed === 0 && outsideRegistry.length === 0) return null;
  const rest = outsideRegistry.length - SHOWN;
  return (
    <section
      className="space-y-2 rounded-lg border border-sky-200 bg-sky-50 p-4 text-sm text-sky-950"
      aria-label="Activations outside the table"
    >
      {unnamed > 0 && (
        <p data-testid="unnamed-activations">
          {unnamed} activation{unnamed === 1 ? "" : "s"} of unnamed custom skills: set <code>OTEL_LOG_TOOL_DETAILS=1</code> in Claude
          Code&apos;s settings to see their names.
        </p>
      )}
      {outsideRegistry.length > 0 && (
        <div>
          <p className="mb-1">Used outside the registry (last 30 days): skills agents load that Skillgate does not hold.</p>
          <ul className="flex flex-wrap gap-2" data-testid="outside-registry">
            {outsideRegistry.slice(0, SHOWN).map((skill) => (
              <li key={skill.name} className="rounded bg-white px-2 py-0.5 font-mono text-xs" data-outside={skill.name}>
                {skill.name} · {skill.activations}
              </li>
            ))}
            {rest > 0 && <li className="px-1 text-xs">and {rest} more</li>}
          </ul>
        </div>
      )}
    </section>
  );
}
