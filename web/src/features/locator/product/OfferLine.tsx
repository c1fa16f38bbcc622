import { cn } from "../../../lib/cn";
import { AVAILABILITY_LABELS, NOT_SOLD_BY_LAW, offerPrice, reportedLabel } from "./offer";
import type { Availability, Offer } from "./types";

const AVAILABILITY_LOOK: Record<Availability, string> = {
  in_stock: "text-emerald-800",
  limited_availability: "text-amber-800",
  on_display_to_order: "text-gray-800",
  out_of_stock: "text-gray-700",
};

/**
 * A store's row for a product in one line: its availability, price (a sale price with the old
 * one struck) and how long ago it was reported; where the law forbids the product at the store,
 * only "Not sold here by law" and the rule's citation, whatever the stock says (docs/products.md).
 */
export function OfferLine({ offer, now, className }: { offer: Offer; now: Date; className?: string }) {
  const look = cn("flex flex-wrap items-baseline gap-x-2 gap-y-0.5 text-sm", className);
  if (!offer.lawful) {
    const rule = offer.rule;
    return (
      <p className={look} data-offer="unlawful">
        <span className="font-medium text-red-800">{NOT_SOLD_BY_LAW}</span>
        {rule &&
          (/^https?:\/\//.test(rule.url) ? (
            <a href={rule.url} target="_blank" rel="noopener noreferrer" title={rule.summary} className="text-gray-800 underline">
              {rule.citation}
            </a>
          ) : (
            <span className="text-gray-800">{rule.citation}</span>
          ))}
      </p>
    );
  }
  const price = offerPrice(offer);
  return (
    <p className={look} data-offer={offer.availability}>
      <span className={cn("font-medium", AVAILABILITY_LOOK[offer.availability])}>{AVAILABILITY_LABELS[offer.availability]}</span>
      {price && (
        <span className="text-gray-900">
          {price.now}
          {price.was && (
            <>
              {" "}
              <s className="text-gray-700">
                <span className="sr-only">was </span>
                {price.was}
              </s>
            </>
          )}
        </span>
      )}
      <span className={offer.stale ? "text-amber-800" : "text-gray-700"}>{reportedLabel(offer.updated_at, offer.stale, now)}</span>
    </p>
  );
}
