import { Button } from "../../components/ui/button";
import { SERVICE_FILTERS, type StoreFilters } from "./api/list-physical-stores";
import { NO_LICENCE_REGISTRY } from "./LicenceCoverage";

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

/**
 * The filter toggles (the spec's four and "Licence verified"); each shows an active state (aria-pressed) when on.
 * Where no licence registry covers the searched area (licenceCovered false), "Licence verified" says so on
 * pointing and to screen readers; it still works, and the list then explains why it is empty.
 */
export function FilterChips({
  filters,
  onToggle,
  licenceCovered = true,
}: {
  filters: StoreFilters;
  onToggle: (key: keyof StoreFilters) => void;
  licenceCovered?: boolean;
}) {
  return (
    <div role="group" aria-label="Filters" className="flex gap-2 overflow-x-auto pb-1 md:flex-wrap md:overflow-visible">
      {(Object.keys(FILTER_LABELS) as (keyof StoreFilters)[]).map((key) => {
        const uncovered = key === "licensed" && !licenceCovered;
        return (
          <Button
            key={key}
            variant="chip"
            aria-pressed={filters[key]}
            onClick={() => onToggle(key)}
            // relative: the reason's sr-only text stays inside the chip row's scroll box, not the page's.
            className="relative shrink-0"
            title={uncovered ? NO_LICENCE_REGISTRY : undefined}
            aria-describedby={uncovered ? "licence-filter-uncovered" : undefined}
          >
            {filterLabel(key, filters)}
            {uncovered && (
              <span id="licence-filter-uncovered" className="sr-only">
                {NO_LICENCE_REGISTRY}
              </span>
            )}
          </Button>
        );
      })}
    </div>
  );
}
