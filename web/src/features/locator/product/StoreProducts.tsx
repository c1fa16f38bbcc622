import { useQuery } from "@tanstack/react-query";
import { ExternalLink } from "lucide-react";
import type { StoreListItem } from "../../../api/types";
import { Spinner } from "../../../components/ui/spinner";
import { cn } from "../../../lib/cn";
import { AgeCheckedLink, onlineStoreUrl, useOnlineStoreLaw } from "../OnlineStoreButton";
import { storeProductsOptions } from "./api";
import { KIND_LABELS } from "./offer";
import { OfferLine } from "./OfferLine";
import type { ProductKind, StoreProduct } from "./types";

type Store = Pick<StoreListItem, "id" | "store_id" | "latitude" | "longitude" | "is_curbside_pickup_available" | "is_order_online_available">;

/** Whether `p` is the product the address names (by id, or by a GTIN in any of its forms). */
function isChosen(p: StoreProduct, chosen: string | null): boolean {
  if (chosen === null) return false;
  return p.id === chosen || (/^\d{8,14}$/.test(chosen) && p.gtin === chosen.padStart(14, "0"));
}

/** The products in groups of one kind, in the answer's order (by kind, then brand and name). */
function byKind(products: readonly StoreProduct[]): [ProductKind, StoreProduct[]][] {
  const groups = new Map<ProductKind, StoreProduct[]>();
  for (const p of products) {
    const group = groups.get(p.kind);
    if (group) group.push(p);
    else groups.set(p.kind, [p]);
  }
  return [...groups];
}

/**
 * The store panel's products: what the store carries, by kind, each with its availability, price
 * and age, or "Not sold here by law". Each kind is a disclosure, the chosen product's open. "Buy
 * online" opens the product's page in the store's online store behind the same age check and the
 * same shipping law as "Go to online store"; never for a product the law forbids here.
 */
export function StoreProducts({ store, product, now }: { store: Store; product: string | null; now: Date }) {
  const products = useQuery(storeProductsOptions(store.id));
  const law = useOnlineStoreLaw(store);
  const heading = `store-${store.id}-products`;
  const groups = byKind(products.data ?? []);
  return (
    <section aria-labelledby={heading} className="space-y-2">
      <h3 id={heading} className="text-base font-semibold text-gray-900">
        Products
      </h3>
      {products.isPending ? (
        <Spinner label="Loading products" className="text-xs" />
      ) : products.isError ? (
        <p className="text-sm text-gray-700">The store&apos;s products could not be loaded.</p>
      ) : groups.length === 0 ? (
        <p className="text-sm text-gray-700">This store has not listed its products yet.</p>
      ) : (
        groups.map(([kind, items]) => (
          <details key={kind} open={items.some((p) => isChosen(p, product))} className="rounded-md border border-gray-200">
            <summary className="cursor-pointer px-3 py-2 text-sm font-medium text-gray-900">
              {KIND_LABELS[kind]} ({items.length})
            </summary>
            <ul className="divide-y divide-gray-100 border-t border-gray-200">
              {items.map((p) => {
                const chosen = isChosen(p, product);
                const buy = p.handle !== null && p.lawful && p.availability !== "out_of_stock" && !law.pending && law.offered;
                const text = law.ban ? "Order for pickup" : "Buy online";
                return (
                  <li key={p.id} aria-current={chosen || undefined} className={cn("space-y-1 px-3 py-2", chosen && "bg-emerald-50")}>
                    <p className="text-sm font-medium break-words text-gray-900">{p.name}</p>
                    <p className="text-xs text-gray-700">{[p.brand, p.nicotine].filter(Boolean).join(" · ")}</p>
                    <OfferLine offer={p} now={now} />
                    {buy && p.handle !== null && (
                      <AgeCheckedLink
                        href={`${onlineStoreUrl(store)}/products/${encodeURIComponent(p.handle)}`}
                        minAge={law.minAge}
                        storeId={store.id}
                        label={`${text}: ${p.name}`}
                        className="inline-flex items-center gap-1 text-sm font-medium text-emerald-800 underline"
                      >
                        {text}
                        <ExternalLink aria-hidden="true" className="size-3.5" />
                      </AgeCheckedLink>
                    )}
                  </li>
                );
              })}
            </ul>
          </details>
        ))
      )}
    </section>
  );
}
