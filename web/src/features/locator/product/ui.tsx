import type { StoreListItem } from "../../../api/types";
import { OfferLine } from "./OfferLine";

// The product search's parts the locator page loads lazily, in one chunk, once a product is
// chosen or the box is drawn (the entry's budget, scripts/size.mjs).
export { BrandChooser } from "./BrandChooser";
export { ProductBar } from "./ProductBar";
export { ProductSearch } from "./ProductSearch";

/** A listed store's row for the chosen product, under the store's line in the results list. */
export function StoreOfferLine({ store, now }: { store: StoreListItem; now: Date }) {
  const offer = store.product;
  return offer ? <OfferLine offer={offer} now={now} className="-mt-2 pr-4 pb-3 pl-13" /> : null;
}
