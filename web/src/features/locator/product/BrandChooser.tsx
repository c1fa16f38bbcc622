import { useQuery } from "@tanstack/react-query";
import { useEffect, useId } from "react";
import { failureText } from "../../../api/client";
import { brandProductsOptions } from "./api";
import type { BrandProduct } from "./types";

/** Whether the address's product (an id or a GTIN in any of its forms) is this product. */
export function isProduct(p: BrandProduct, ref: string): boolean {
  return p.id === ref || (/^\d{8,14}$/.test(ref) && p.gtin === ref.padStart(14, "0"));
}

/**
 * The widget opened on a brand (docs/embed.md, "A brand's button"): the brand's products, best
 * first (the partner's own, then the most carried), in a select above the list. The list is the
 * product search for the chosen one; with no product chosen yet (or one that is not the brand's)
 * the first is chosen, replacing the address so Back does not return to the empty choice.
 */
export function BrandChooser({
  brand,
  partner,
  productId,
  onChoose,
}: {
  brand: string;
  partner: string | null;
  productId: string | null;
  onChoose: (productId: string, replace: boolean) => void;
}) {
  const id = useId();
  const query = useQuery(brandProductsOptions(brand, partner));
  const products = query.data?.products;
  const chosen = productId !== null ? products?.find((p) => isProduct(p, productId)) : undefined;
  const first = products?.[0]?.id;
  const needsChoice = products !== undefined && chosen === undefined;
  useEffect(() => {
    if (needsChoice && first !== undefined) onChoose(first, true);
  }, [needsChoice, first, onChoose]);

  if (query.isError) {
    return (
      <p role="alert" className="mt-2 text-sm text-red-800">
        Could not load the products of {brand}: {failureText(query.error)}
      </p>
    );
  }
  if (products === undefined) return null;
  if (products.length === 0) {
    return <p className="mt-2 text-sm text-gray-700">No product of {query.data?.brand ?? brand} is in the catalogue yet.</p>;
  }
  return (
    <div className="mt-2 flex flex-wrap items-center gap-x-2 gap-y-1">
      <label htmlFor={id} className="text-sm font-medium text-gray-900">
        {`${query.data?.brand ?? brand} product`}
      </label>
      <select
        id={id}
        value={chosen?.id ?? first}
        onChange={(e) => onChoose(e.target.value, false)}
        className="min-w-0 flex-1 basis-48 rounded-md border border-gray-300 bg-white px-2 py-1.5 text-sm text-gray-900 focus-visible:outline-2 focus-visible:outline-emerald-700"
      >
        {products.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </select>
    </div>
  );
}
