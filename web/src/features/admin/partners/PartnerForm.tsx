import { useMutation } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { ApiError, failureText } from "../../../api/client";
import { Button } from "../../../components/ui/button";
import { Field, FormError } from "../../../components/ui/field";
import type { Partner, PartnerInput } from "./api";
import { isUnauthorized } from "../unauthorized";

const KINDS = [
  ["brand", "Brand"],
  ["pos", "Point-of-sale vendor"],
  ["chain", "Chain"],
] as const;

type Values = { name: string; slug: string; kind: PartnerInput["kind"]; origins: string; brands: string; products: string };

const lines = (text: string) =>
  text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");

const valuesOf = (p?: Partner): Values => ({
  name: p?.name ?? "",
  slug: p?.slug ?? "",
  kind: p?.kind ?? "brand",
  origins: (p?.allowed_origins ?? []).join("\n"),
  brands: (p?.brands ?? []).join("\n"),
  products: (p?.product_ids ?? []).join("\n"),
});

/** The server's messages start with the field they are about ("kind: ..."). */
const FIELDS: Record<string, keyof Values> = { name: "name", slug: "slug", kind: "kind", allowed_origins: "origins", brands: "brands", product_ids: "products" };
export function fieldOfPartnerMessage(message: string): keyof Values | undefined {
  return FIELDS[message.split(":")[0] ?? ""];
}

/**
 * A partner's form: name, slug, kind, and the lists one per line (allowed sites, brand names,
 * catalogue product ids). Used to create a partner and to edit one; a refused field shows the
 * server's reason under it.
 */
export function PartnerForm({ partner, onSaved, onUnauthorized, save }: { partner?: Partner; onSaved: (p: Partner) => void; onUnauthorized: () => void; save: (input: PartnerInput) => Promise<Partner> }) {
  const [values, setValues] = useState(() => valuesOf(partner));
  const [fieldError, setFieldError] = useState<{ field: keyof Values; message: string } | null>(null);
  const id = useId();
  const mutation = useMutation({
    mutationFn: save,
    onSuccess: onSaved,
    onError: (e) => {
      if (isUnauthorized(e)) onUnauthorized();
      const field = e instanceof ApiError && (e.status === 400 || e.status === 409) ? fieldOfPartnerMessage(e.message) : undefined;
      setFieldError(field ? { field, message: e.message } : null);
    },
  });
  const set = <K extends keyof Values>(key: K, value: Values[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    if (fieldError?.field === key) setFieldError(null);
  };
  const err = (key: keyof Values) => (fieldError?.field === key ? fieldError.message : undefined);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFieldError(null);
    mutation.mutate({
      name: values.name,
      ...(values.slug.trim() ? { slug: values.slug.trim() } : {}),
      kind: values.kind,
      allowed_origins: lines(values.origins),
      brands: lines(values.brands),
      product_ids: lines(values.products),
    });
  };
  const area = (key: "origins" | "brands" | "products", label: string, hint: string) => (
    <div className="flex flex-col gap-1 sm:col-span-2">
      <label htmlFor={`${id}-${key}`} className="text-sm font-medium text-gray-900">
        {label}
      </label>
      <textarea
        id={`${id}-${key}`}
        rows={3}
        value={values[key]}
        aria-invalid={err(key) ? true : undefined}
        aria-describedby={`${id}-${key}-hint${err(key) ? ` ${id}-${key}-error` : ""}`}
        onChange={(e) => set(key, e.target.value)}
        className="rounded-md border border-gray-400 px-2 py-2 font-mono text-sm"
      />
      <p id={`${id}-${key}-hint`} className="text-xs text-gray-600">
        {hint}
      </p>
      {err(key) && (
        <p id={`${id}-${key}-error`} role="alert" className="text-sm text-red-700">
          {err(key)}
        </p>
      )}
    </div>
  );
  return (
    <form onSubmit={submit} aria-label={partner ? `Edit ${partner.name}` : "New partner"} className="mt-3 grid gap-3 sm:grid-cols-2" noValidate>
      <Field label="Name" value={values.name} maxLength={100} error={err("name")} onChange={(e) => set("name", e.target.value)} />
      <Field label="Slug" hint="Its name in URLs and insights; empty: made from the name" value={values.slug} maxLength={40} error={err("slug")} onChange={(e) => set("slug", e.target.value)} />
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-kind`} className="text-sm font-medium text-gray-900">
          Kind
        </label>
        <select id={`${id}-kind`} value={values.kind} onChange={(e) => set("kind", e.target.value as Values["kind"])} className="rounded-md border border-gray-400 px-2 py-2">
          {KINDS.map(([v, label]) => (
            <option key={v} value={v}>
              {label}
            </option>
          ))}
        </select>
        {err("kind") && (
          <p role="alert" className="text-sm text-red-700">
            {err("kind")}
          </p>
        )}
      </div>
      {area("origins", "Sites that may show the widget", "One per line: https://shop.example")}
      {area("brands", "Brand names", "One per line: every catalogue product of these brands")}
      {area("products", "Product ids", "One per line: catalogue ids")}
      <div className="flex flex-col gap-2 sm:col-span-2">
        <div>
          <Button type="submit" disabled={mutation.isPending}>
            {mutation.isPending ? "Saving…" : partner ? "Save the partner" : "Add the partner"}
          </Button>
        </div>
        {mutation.isError && !fieldError && <FormError>{`Could not save the partner: ${failureText(mutation.error)}`}</FormError>}
      </div>
    </form>
  );
}
