import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { ApiError, failureText } from "../../api/client";
import { businessKeys } from "../../api/keys";
import { Loaded } from "../../components/Loaded";
import { Button } from "../../components/ui/button";
import { Field } from "../../components/ui/field";
import { Outcome, useOutcome } from "../../components/ui/outcome";
import { findProductsOptions, removeStock, setStock, storeStockOptions, type Availability, type CatalogueProduct, type StockItem } from "./api/stock";
import type { BusinessStore } from "./types";

/** The availabilities an owner picks from, in the words the dashboard uses. */
export const availabilityWords: Record<Availability, string> = {
  in_stock: "In stock",
  limited_availability: "Limited",
  on_display_to_order: "On display",
  out_of_stock: "Out of stock",
};
const availabilities = Object.keys(availabilityWords) as Availability[];

const dateFormat = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", hour: "numeric", minute: "2-digit" });

/** "12.99" -> "12.99 USD"; a price with its currency is sent as typed; empty is none. */
function priceOf(text: string): string | null {
  const t = text.trim();
  if (t === "") return null;
  return /^[0-9]+(\.[0-9]{1,2})?$/.test(t) ? `${t} USD` : t;
}

/**
 * "Stock": what the store carries (docs/products.md, "Owners' stock"). Find a catalogue product by
 * name, brand or a scanned barcode and mark it carried; change a row's availability or remove it.
 * A row the law forbids here reads "Not sold here by law" with the citation: shoppers see that,
 * never the availability.
 */
export function StoreStock({ store }: { store: BusinessStore }) {
  const queryClient = useQueryClient();
  const stock = useQuery(storeStockOptions(store.id));
  const outcome = useOutcome();
  const [busy, setBusy] = useState<string | null>(null);
  const headingId = `stock-${store.id}`;
  // 404: this server keeps no stock (the store itself is the account's: it is listed).
  if (stock.error instanceof ApiError && stock.error.status === 404) return null;

  const changed = async (notice: string) => {
    outcome.setNotice(notice);
    await queryClient.invalidateQueries({ queryKey: businessKeys.stock(store.id) });
  };

  const act = async (key: string, action: () => Promise<string>) => {
    outcome.clear();
    setBusy(key);
    try {
      await changed(await action());
    } catch (error) {
      outcome.setFailure(failureText(error));
    }
    setBusy(null);
  };

  const setAvailability = (item: StockItem, availability: Availability) =>
    act(item.product.id, async () => {
      await setStock(store.id, item.product.id, { availability, quantity: availability === "out_of_stock" ? 0 : item.quantity, price: item.price });
      return `${item.product.name}: ${availabilityWords[availability].toLowerCase()}.`;
    });

  const remove = (item: StockItem) =>
    act(item.product.id, async () => {
      await removeStock(store.id, item.product.id);
      return `${item.product.name} is no longer listed as carried.`;
    });

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3 rounded-md border border-gray-200 bg-white p-4">
      <h3 id={headingId} className="font-medium text-gray-900">
        Stock
      </h3>
      <AddProduct store={store} busy={busy !== null} onAdded={(msg) => void changed(msg)} onFailed={(msg) => outcome.setFailure(msg)} />
      <Loaded query={stock} loading="Loading the stock…" failed="Could not load the stock">
        {(items) =>
          items.length === 0 ? (
            <p className="text-sm text-gray-700">No product listed yet: find one above, or upload a stock feed.</p>
          ) : (
            <ul aria-label="Products this store carries" className="flex flex-col divide-y divide-gray-100">
              {items.map((item) => (
                <li key={item.product.id} aria-label={item.product.name} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                  <span className="min-w-0 text-gray-900">
                    <span className="block font-medium">{item.product.name}</span>
                    <span className="block text-gray-700">
                      {item.product.brand}
                      {item.quantity !== null && ` · ${item.quantity} in store`}
                      {item.price && ` · ${item.price}`} · updated {dateFormat.format(new Date(item.reported_at))}
                    </span>
                    {!item.lawful && item.rule && (
                      <span className="block text-red-800">
                        <strong>Not sold here by law</strong>: {item.rule.summary} ({item.rule.citation}). Shoppers see this instead of your availability.
                      </span>
                    )}
                  </span>
                  <span className="flex items-center gap-2">
                    <label className="sr-only" htmlFor={`avail-${store.id}-${item.product.id}`}>
                      Availability of {item.product.name}
                    </label>
                    <select
                      id={`avail-${store.id}-${item.product.id}`}
                      value={item.availability}
                      disabled={busy !== null}
                      onChange={(e) => void setAvailability(item, e.target.value as Availability)}
                      className="rounded-md border border-gray-400 px-2 py-1.5 text-gray-900"
                    >
                      {availabilities.map((a) => (
                        <option key={a} value={a}>
                          {availabilityWords[a]}
                        </option>
                      ))}
                    </select>
                    <Button variant="outline" disabled={busy !== null} onClick={() => void remove(item)}>
                      {`Remove ${item.product.name}`}
                    </Button>
                  </span>
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
      <Outcome {...outcome} />
    </section>
  );
}

/** Find a catalogue product and mark it carried with an availability, quantity and price. */
function AddProduct({ store, busy, onAdded, onFailed }: { store: BusinessStore; busy: boolean; onAdded: (msg: string) => void; onFailed: (msg: string) => void }) {
  const [text, setText] = useState("");
  const [q, setQ] = useState("");
  const found = useQuery(findProductsOptions(q));
  const [picked, setPicked] = useState<CatalogueProduct | null>(null);
  const [availability, setAvailability] = useState<Availability>("in_stock");
  const [quantity, setQuantity] = useState("");
  const [price, setPrice] = useState("");
  const [saving, setSaving] = useState(false);
  const selectId = useId();

  const search = (event: FormEvent) => {
    event.preventDefault();
    setPicked(null);
    setQ(text.trim());
  };

  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (!picked) return;
    setSaving(true);
    try {
      const qty = quantity.trim() === "" ? null : Number(quantity);
      await setStock(store.id, picked.id, { availability, quantity: qty, price: priceOf(price) });
      onAdded(`${picked.name}: ${availabilityWords[availability].toLowerCase()}.`);
      setPicked(null);
      setQuantity("");
      setPrice("");
    } catch (error) {
      onFailed(`Could not save ${picked.name}: ${failureText(error)}`);
    }
    setSaving(false);
  };

  return (
    <div className="flex flex-col gap-2">
      <form role="search" aria-label="Catalogue search" noValidate onSubmit={search} className="flex flex-wrap items-end gap-2">
        <Field label="Find a product" value={text} maxLength={100} onChange={(e) => setText(e.target.value)} hint="Name, brand or the barcode's digits." className="min-w-48 flex-1" />
        <Button type="submit" variant="outline" disabled={text.trim() === ""}>
          Find
        </Button>
      </form>
      {q !== "" && (
        <Loaded query={found} loading="Searching the catalogue…" failed="Could not search the catalogue">
          {(answer) =>
            answer.products.length === 0 ? (
              <p className="text-sm text-gray-700">No product of the catalogue matches “{q}”.</p>
            ) : (
              <ul aria-label="Catalogue products" className="flex flex-col gap-1">
                {answer.products.map((p) => (
                  <li key={p.id}>
                    <button
                      type="button"
                      aria-pressed={picked?.id === p.id}
                      onClick={() => setPicked(p)}
                      className="w-full rounded-md border border-gray-200 px-3 py-1.5 text-left text-sm hover:bg-gray-50 aria-pressed:border-emerald-700"
                    >
                      <span className="font-medium text-gray-900">{p.name}</span> <span className="text-gray-700">· {p.brand}</span>
                    </button>
                  </li>
                ))}
              </ul>
            )
          }
        </Loaded>
      )}
      {picked && (
        <form noValidate onSubmit={(e) => void add(e)} aria-label={`Carry ${picked.name}`} className="flex flex-wrap items-end gap-2 rounded-md border border-emerald-300 bg-emerald-50 p-3">
          <div className="flex flex-col gap-1">
            <label htmlFor={selectId} className="text-sm font-medium text-gray-900">
              Availability
            </label>
            <select id={selectId} value={availability} onChange={(e) => setAvailability(e.target.value as Availability)} className="rounded-md border border-gray-400 px-2 py-2 text-gray-900">
              {availabilities.map((a) => (
                <option key={a} value={a}>
                  {availabilityWords[a]}
                </option>
              ))}
            </select>
          </div>
          <Field label="Quantity (optional)" inputMode="numeric" value={quantity} onChange={(e) => setQuantity(e.target.value)} className="w-36" />
          <Field label="Price in USD (optional)" inputMode="decimal" value={price} onChange={(e) => setPrice(e.target.value)} className="w-40" />
          <Button type="submit" disabled={busy || saving}>
            Mark carried
          </Button>
        </form>
      )}
    </div>
  );
}
