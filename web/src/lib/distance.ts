// Distances as a shopper reads them: miles where road signs use miles, kilometres elsewhere.
// The API answers in miles (api/openapi.yaml, StoreListItem.distance).

const KM_PER_MILE = 1.609344;
// The regions whose roads are signed in miles.
const MILE_REGIONS = new Set(["US", "GB", "LR", "MM", "PR", "VI", "GU", "AS", "MP", "UM"]);

/** Whether the locale's region measures road distances in miles (a locale without one: miles, the catalogue's home). */
export function usesMiles(locale: string): boolean {
  try {
    const region = new Intl.Locale(locale).maximize().region;
    return region === undefined || MILE_REGIONS.has(region);
  } catch {
    return true;
  }
}

/** "0.4 mi", "12 mi", "< 0.1 mi"; "3.2 km" in a kilometre locale. */
export function formatDistance(miles: number, locale: string = typeof navigator === "undefined" ? "en-US" : navigator.language): string {
  const inMiles = usesMiles(locale);
  const value = inMiles ? miles : miles * KM_PER_MILE;
  const format = new Intl.NumberFormat(locale, {
    style: "unit",
    unit: inMiles ? "mile" : "kilometer",
    unitDisplay: "short",
    maximumFractionDigits: value < 10 ? 1 : 0,
  });
  return value < 0.1 ? `< ${format.format(0.1)}` : format.format(value);
}
