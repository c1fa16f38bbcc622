import { Button } from "../../components/ui/button";
import { SERVICE_FILTERS, type StoreFilters } from "./api/list-physical-stores";

export const FILTER_LABELS: Record<keyof StoreFilters, string> = {
  open: "Open now",
  delivery: "Delivery",
  online: "Order online",
  curbside: "Curbside pickup",
  licensed: "Licence verified",
};

/** A chip's text: the spec's, and "Delivery now" etc. for a service while Open now is on (docs/product-rules.md, "Services"). */
export function filterLabel(key: keyof StoreFilters, filters: StoreFilters): string {
  return filters.open && key in SERVICE_FILTERS ? `${FILTER_LABELS[key]} now` : FILTER_LABELS[key];
}

/** The filter toggles (the spec's four and "Licence verified"); each shows an active state (aria-pressed) when on. */
export function FilterChips({ filters, onToggle }: { filters: StoreFilters; onToggle: (key: keyof StoreFilters) => void }) {
  return (
    <div role="group" aria-label="Filters" className="flex gap-2 overflow-x-auto pb-1 md:flex-wrap md:overflow-visible">
      {(Object.keys(FILTER_LABELS) as (keyof StoreFilters)[]).map((key) => (
        <Button key={key} variant="chip" aria-pressed={filters[key]} onClick={() => onToggle(key)} className="shrink-0">
          {filterLabel(key, filters)}
        </Button>
      ))}
    </div>
  );
}
