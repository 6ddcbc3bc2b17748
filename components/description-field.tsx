import { formatLint, lintDescription } from "@/lib/lint/lint";

/** A skill's description, with the lint it gets in the listing said as it is typed. */
export function DescriptionField({
  name,
  value,
  onChange,
  descMax,
  lintTestId,
}: {
  name: string;
  value: string;
  onChange: (description: string) => void;
  descMax: number;
  lintTestId?: string;
}) {
  const lint = formatLint(lintDescription(value, descMax));
  return (
    <>
      <label className="block text-sm font-medium">
        Description
        <textarea
          name={name}
          rows={2}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          className="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1 text-sm"
        />
      </label>
      <pre
        data-testid={lintTestId}
        className={`whitespace-pre-wrap text-xs ${lint === "[lint] clean" ? "text-emerald-700" : "text-amber-800"}`}
      >
        {lint}
      </pre>
    </>
  );
}
