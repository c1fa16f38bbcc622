import { useQuery } from "@tanstack/react-query";
import { failureText } from "../../../api/client";
import { Button } from "../../../components/ui/button";
import { productOptions } from "./api";

/**
 * Under the filters while a product is chosen: which product the list is for, the "In stock
 * only" toggle and the way back to the plain locator (none in the widget opened on a brand,
 * whose chooser always holds a product).
 */
export function ProductBar({
  productId,
  inStock,
  onInStock,
  onClear,
}: {
  productId: string;
  inStock: boolean;
  onInStock: () => void;
  onClear?: () => void;
}) {
  const product = useQuery(productOptions(productId));
  return (
    <div role="group" aria-label="Product" className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1">
      <p className="min-w-0 flex-1 basis-40 text-sm text-gray-900" aria-live="polite">
        {product.isError ? (
          <span className="text-red-800">Product not found: {failureText(product.error)}</span>
        ) : product.data ? (
          <>
            Stores with <span className="font-medium">{product.data.name}</span>
          </>
        ) : null}
      </p>
      <Button variant="chip" aria-pressed={inStock} onClick={onInStock} className="shrink-0">
        In stock only
      </Button>
      {onClear && (
        <button type="button" onClick={onClear} className="min-h-6 shrink-0 text-sm font-medium text-emerald-800 underline">
          Clear product
        </button>
      )}
    </div>
  );
}
