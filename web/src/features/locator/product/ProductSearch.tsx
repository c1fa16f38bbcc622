import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Package, Search, X } from "lucide-react";
import { useRef, useState } from "react";
import { productKeys } from "../../../api/keys";
import { Combobox, useComboboxState } from "../../../components/Combobox";
import { useDebounced } from "../useDebounced";
import { productOptions, suggestProductsOptions } from "./api";
import { productFacts } from "./offer";
import type { ProductSummary } from "./types";

/** Suggestions wait this long after the last key (the catalogue answers from memory, fast). */
export const PRODUCT_SUGGEST_DEBOUNCE_MS = 250;

/**
 * The product search box beside the place search: suggestions by name, brand or GTIN from
 * store/products/suggest, debounced; Enter before they came asks at once and takes the best.
 * With a product chosen the box shows its name (fetched by id after a reload or from a shared
 * link) and a button that clears it.
 */
export function ProductSearch({
  productId,
  onChoose,
  onClear,
}: {
  productId: string | null;
  onChoose: (product: ProductSummary) => void;
  onClear: () => void;
}) {
  const box = useComboboxState();
  const queryClient = useQueryClient();
  const chosen = useQuery({ ...productOptions(productId ?? ""), enabled: productId !== null });
  // What the shopper typed; null while the box shows the chosen product's name.
  const [typed, setTyped] = useState<string | null>(null);
  const [shownFor, setShownFor] = useState(productId);
  if (shownFor !== productId) {
    // Another product (back, forward, cleared elsewhere): the box shows it.
    setShownFor(productId);
    setTyped(null);
  }
  const value = typed ?? (productId !== null && chosen.data ? chosen.data.name : "");
  const trimmed = value.trim();
  const debounced = useDebounced(trimmed, PRODUCT_SUGGEST_DEBOUNCE_MS);
  const [entered, setEntered] = useState<string | null>(null);
  const latest = useRef(value);
  const pending = entered !== null && entered === trimmed;
  const term = pending ? trimmed : debounced;
  const enabled = (box.open || pending) && typed !== null && term.length >= 2 && term === trimmed;
  const suggestions = useQuery({ ...suggestProductsOptions(term), enabled });
  const options = enabled ? (suggestions.data ?? []) : [];
  const expanded = box.open && enabled && (options.length > 0 || suggestions.isFetching || suggestions.isSuccess || suggestions.isError);

  const choose = (product: ProductSummary) => {
    box.close();
    setEntered(null);
    setTyped(null);
    // The box shows the name at once; the one-product answer (with more) replaces it when asked.
    if (queryClient.getQueryData(productKeys.detail(product.id)) === undefined) queryClient.setQueryData(productKeys.detail(product.id), product);
    onChoose(product);
  };
  const clear = () => {
    box.close();
    setEntered(null);
    setTyped(null);
    if (productId !== null) onClear();
  };

  return (
    <Combobox
      state={box}
      label="Search for a product"
      listLabel="Products"
      placeholder="Search product, brand or GTIN"
      icon={<Package aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-gray-500" />}
      value={value}
      onValueChange={(text) => {
        latest.current = text;
        setTyped(text);
      }}
      options={options}
      optionKey={(product) => product.id}
      renderOption={(product) => (
        <>
          <Search aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-gray-500" />
          <span className="flex min-w-0 flex-col">
            <span className="break-words">{product.name}</span>
            <span className="text-xs text-gray-700">{productFacts(product)}</span>
          </span>
        </>
      )}
      onChoose={choose}
      expanded={expanded}
      emptyText={suggestions.isFetching ? "Searching..." : suggestions.isError ? "Products can't be searched right now" : "No products found"}
      onEnter={(event) => {
        if (typed === null || trimmed.length < 2) return;
        event.preventDefault();
        const text = trimmed;
        setEntered(text);
        const takeBest = (found: ProductSummary[]) => {
          if (latest.current.trim() !== text) return;
          const best = found[0];
          if (best) choose(best);
          else box.setOpen(true); // the list says "No products found"
        };
        void queryClient.fetchQuery(suggestProductsOptions(text)).then(takeBest, () => box.setOpen(true));
      }}
      after={
        productId !== null || (typed ?? "") !== "" ? (
          <button
            type="button"
            aria-label={productId !== null ? "Clear the product" : "Clear the product search"}
            onClick={clear}
            className="absolute top-1/2 right-1 inline-flex size-7 -translate-y-1/2 items-center justify-center rounded text-gray-600 hover:bg-gray-100 hover:text-gray-900 focus-visible:outline-2 focus-visible:outline-emerald-700"
          >
            <X aria-hidden="true" className="size-4" />
          </button>
        ) : null
      }
    />
  );
}
