"use client";

import { useState } from "react";
import { Field, KeptForm } from "@/components/ui/kept-form";
import type { FormAction } from "@/components/ui/use-kept-form";

/** The team's listing settings (docs/skills-and-listing.md#the-listing): its cap, the characters a description keeps (descMax) and the load hint. */
export function ListingSettingsForm({
  action,
  cap,
  descMax,
  loadHint,
}: {
  action: FormAction;
  cap: number;
  descMax: number;
  loadHint: string;
}) {
  const [values, setValues] = useState({ cap: String(cap), descMax: String(descMax), loadHint });
  const field = (name: keyof typeof values) => ({
    name,
    value: values[name],
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => setValues({ ...values, [name]: event.target.value }),
  });
  return (
    <KeptForm
      label="Listing settings"
      action={action}
      submit="Save"
      row={
        <>
          <Field label="Cap" width="w-32" {...field("cap")} type="number" />
          <Field label="descMax" width="w-24" {...field("descMax")} type="number" />
          <Field label="Load hint" width="w-40" {...field("loadHint")} />
        </>
      }
    />
  );
}
