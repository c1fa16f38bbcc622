import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent, type ReactNode } from "react";
import { ApiError, failureText } from "../../api/client";
import { adminKeys } from "../../api/keys";
import { Loaded } from "../../components/Loaded";
import { Button } from "../../components/ui/button";
import { Field, FormError } from "../../components/ui/field";
import { Notice } from "../../components/ui/outcome";
import { editProduct, PRODUCT_PAGE, productOptions, productSearchOptions, type AdminProduct, type ProductPatch } from "./api/products";
import { isUnauthorized, useSignedOutOn } from "./unauthorized";

const KINDS = ["disposable", "pod_system", "pods", "open_system", "e_liquid", "nicotine_pouch", "heated_tobacco", "accessory"] as const;
const FLAVOURS = ["tobacco", "menthol", "mint", "fruit", "dessert", "other", "unflavoured"] as const;
const FDA = ["none", "authorised", "denied", "pending"] as const;

/**
 * "Products" in /admin: a moderator finds a catalogue product by name, brand or GTIN, opens it and
 * corrects it; the server holds the edit to the catalogue file's rules (docs/products.md) and
 * names the field it refuses, shown under that field.
 */
export function ProductsPanel({ onUnauthorized }: { onUnauthorized: () => void }) {
  const [text, setText] = useState("");
  const [q, setQ] = useState("");
  const [offset, setOffset] = useState(0);
  const [openId, setOpenId] = useState<string | null>(null);
  const [notice, setNotice] = useState("");
  const list = useQuery(productSearchOptions(q, offset));
  useSignedOutOn([list.error], onUnauthorized);
  const search = (event: FormEvent) => {
    event.preventDefault();
    setQ(text.trim());
    setOffset(0);
  };
  return (
    <section aria-labelledby="products-heading" className="flex flex-col gap-4">
      <h2 id="products-heading" className="text-base font-semibold text-gray-900">
        Catalogue products
      </h2>
      <form role="search" aria-label="Search products" onSubmit={search} className="flex flex-wrap items-end gap-3">
        <Field label="Name, brand or GTIN" value={text} maxLength={100} onChange={(e) => setText(e.target.value)} className="min-w-64 flex-1" />
        <Button type="submit">Search</Button>
      </form>
      <Notice notice={notice} />
      <Loaded query={list} loading="Loading products…" failed="Could not load the products">
        {(data) =>
          data.products.length === 0 ? (
            <p className="text-gray-700">{q ? `No product matches “${q}”.` : "The catalogue is empty."}</p>
          ) : (
            <>
              <p className="text-sm text-gray-700">
                {`${offset + 1}–${offset + data.products.length} of ${data.total} ${data.total === 1 ? "product" : "products"}`}
              </p>
              <ul aria-label="Products" className="flex flex-col gap-2">
                {data.products.map((p) => (
                  <li key={p.id} className="rounded-md border border-gray-200 bg-white p-3">
                    <div className="flex flex-wrap items-baseline justify-between gap-2">
                      <div>
                        <h3 className="font-semibold text-gray-900">{p.name}</h3>
                        <p className="text-sm text-gray-700">
                          {[p.brand, p.kind.replaceAll("_", " "), p.gtin ? `GTIN ${p.gtin}` : "no GTIN", p.id].join(" · ")}
                        </p>
                      </div>
                      <Button variant="outline" aria-expanded={openId === p.id} onClick={() => setOpenId(openId === p.id ? null : p.id)}>
                        {openId === p.id ? "Close" : "Edit"} <span className="sr-only">{p.name}</span>
                      </Button>
                    </div>
                    {openId === p.id && (
                      <ProductEditor
                        id={p.id}
                        onUnauthorized={onUnauthorized}
                        onSaved={(saved) => {
                          setNotice(`Saved ${saved.name}.`);
                          setOpenId(saved.id);
                        }}
                      />
                    )}
                  </li>
                ))}
              </ul>
              <div className="flex gap-2">
                <Button variant="outline" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PRODUCT_PAGE))}>
                  Previous
                </Button>
                <Button variant="outline" disabled={offset + PRODUCT_PAGE >= data.total} onClick={() => setOffset(offset + PRODUCT_PAGE)}>
                  Next
                </Button>
              </div>
            </>
          )
        }
      </Loaded>
    </section>
  );
}

function ProductEditor({ id, onSaved, onUnauthorized }: { id: string; onSaved: (p: AdminProduct) => void; onUnauthorized: () => void }) {
  const product = useQuery(productOptions(id));
  return (
    <Loaded query={product} loading="Loading the product…" failed="Could not load the product">
      {(p) => <ProductForm key={p.updated_at} product={p} onSaved={onSaved} onUnauthorized={onUnauthorized} />}
    </Loaded>
  );
}

type Values = {
  id: string;
  gtin: string;
  brand: string;
  name: string;
  kind: string;
  flavour: string;
  nicotine: string;
  is_zero_nic_applicable: boolean;
  is_cbd_applicable: boolean;
  image: string;
  handle: string;
  fda_status: string;
};

const valuesOf = (p: AdminProduct): Values => ({
  id: p.id,
  gtin: p.gtin ?? "",
  brand: p.brand,
  name: p.name,
  kind: p.kind,
  flavour: p.flavour,
  nicotine: p.nicotine ?? "",
  is_zero_nic_applicable: p.is_zero_nic_applicable,
  is_cbd_applicable: p.is_cbd_applicable,
  image: p.image ?? "",
  handle: p.handle ?? "",
  fda_status: p.fda_status,
});

/** The fields the server's message is about: its messages start with the field's name. */
export function fieldOfMessage(message: string): keyof Values | undefined {
  const m = message.toLowerCase();
  const names: (keyof Values)[] = ["is_zero_nic_applicable", "is_cbd_applicable", "fda_status", "flavour", "nicotine", "gtin", "brand", "name", "kind", "image", "handle", "id"];
  return names.find((n) => m.startsWith(`${n} `));
}

/** The edit form of one product: sends only the fields changed; a refused field shows the server's reason under it. */
export function ProductForm({ product, onSaved, onUnauthorized }: { product: AdminProduct; onSaved: (p: AdminProduct) => void; onUnauthorized: () => void }) {
  const queryClient = useQueryClient();
  const [values, setValues] = useState(() => valuesOf(product));
  const [fieldError, setFieldError] = useState<{ field: keyof Values; message: string } | null>(null);
  const [unchanged, setUnchanged] = useState(false);
  const save = useMutation({
    mutationFn: (patch: ProductPatch) => editProduct(product.id, patch),
    onSuccess: (saved) => {
      queryClient.setQueryData(productOptions(saved.id).queryKey, saved);
      void queryClient.invalidateQueries({ queryKey: [...adminKeys.products, "search"] });
      onSaved(saved);
    },
    onError: (e) => {
      if (isUnauthorized(e)) onUnauthorized();
      const field = e instanceof ApiError && (e.status === 400 || e.status === 409) ? fieldOfMessage(e.message) : undefined;
      setFieldError(field ? { field, message: e.message } : null);
    },
  });
  const set = <K extends keyof Values>(key: K, value: Values[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setUnchanged(false);
    if (fieldError?.field === key) setFieldError(null);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const before = valuesOf(product);
    const patch: Record<string, string | boolean | null> = {};
    for (const key of Object.keys(values) as (keyof Values)[]) {
      if (values[key] !== before[key]) patch[key] = values[key];
    }
    if (Object.keys(patch).length === 0) {
      setUnchanged(true);
      return;
    }
    setFieldError(null);
    save.mutate(patch);
  };
  const err = (key: keyof Values) => (fieldError?.field === key ? fieldError.message : undefined);
  const text = (key: "id" | "gtin" | "brand" | "name" | "nicotine" | "image" | "handle", label: string, hint?: string) => (
    <Field label={label} hint={hint} value={values[key]} error={err(key)} onChange={(e) => set(key, e.target.value)} />
  );
  return (
    <form onSubmit={submit} aria-label={`Edit ${product.name}`} className="mt-3 grid gap-3 sm:grid-cols-2" noValidate>
      {text("name", "Name")}
      {text("brand", "Brand")}
      <Select label="Kind" value={values.kind} options={KINDS} error={err("kind")} onChange={(v) => set("kind", v)} />
      <Select label="Flavour family" value={values.flavour} options={FLAVOURS} error={err("flavour")} onChange={(v) => set("flavour", v)} />
      {text("nicotine", "Nicotine strength", "50 mg/mL, 5% or 6 mg/pouch; empty when not known")}
      {text("gtin", "GTIN", "8, 12, 13 or 14 digits; empty for none")}
      {text("handle", "Storefront handle", "The marketplace page /products/{handle}")}
      {text("image", "Image URL")}
      <Select label="FDA marketing order" value={values.fda_status} options={FDA} error={err("fda_status")} onChange={(v) => set("fda_status", v)} />
      {text("id", "Product id", "The id feeds name it by; change it only with the feeds")}
      <Check label="Zero nicotine" checked={values.is_zero_nic_applicable} error={err("is_zero_nic_applicable")} onChange={(v) => set("is_zero_nic_applicable", v)} />
      <Check label="CBD" checked={values.is_cbd_applicable} error={err("is_cbd_applicable")} onChange={(v) => set("is_cbd_applicable", v)} />
      <div className="flex flex-col gap-2 sm:col-span-2">
        <div>
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? "Saving…" : "Save the product"}
          </Button>
        </div>
        {unchanged && <p className="text-sm text-gray-700">Nothing changed.</p>}
        {save.isError && !fieldError && <FormError>{`Could not save the product: ${failureText(save.error)}`}</FormError>}
      </div>
    </form>
  );
}

function Select({ label, value, options, error, onChange }: { label: string; value: string; options: readonly string[]; error?: string; onChange: (v: string) => void }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-gray-900">
        {label}
      </label>
      <select
        id={id}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.value)}
        className="rounded-md border border-gray-400 px-2 py-2"
      >
        {options.map((o) => (
          <option key={o} value={o}>
            {o.replaceAll("_", " ")}
          </option>
        ))}
      </select>
      <FieldMessage id={`${id}-error`}>{error}</FieldMessage>
    </div>
  );
}

function Check({ label, checked, error, onChange }: { label: string; checked: boolean; error?: string; onChange: (v: boolean) => void }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label className="flex items-center gap-2 text-sm font-medium text-gray-900">
        <input
          type="checkbox"
          checked={checked}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => onChange(e.target.checked)}
        />
        {label}
      </label>
      <FieldMessage id={`${id}-error`}>{error}</FieldMessage>
    </div>
  );
}

function FieldMessage({ id, children }: { id: string; children?: ReactNode }) {
  if (!children) return null;
  return (
    <p id={id} role="alert" className="text-sm text-red-700">
      {children}
    </p>
  );
}
