import { FIELD_BOX } from "@/components/ui/kept-form";

const ROLE_OPTIONS = ["viewer", "editor", "lead"] as const;

/** A role to give a member or an invited person, named `role`; the chosen one is the form's state. */
export function RoleSelect({
  value,
  onChange,
  label,
  className = FIELD_BOX,
}: {
  value: string;
  onChange: (role: string) => void;
  label?: string;
  className?: string;
}) {
  return (
    <select name="role" value={value} onChange={(event) => onChange(event.target.value)} aria-label={label} className={className}>
      {ROLE_OPTIONS.map((option) => (
        <option key={option}>{option}</option>
      ))}
    </select>
  );
}
