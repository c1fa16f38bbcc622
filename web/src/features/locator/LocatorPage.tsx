import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ChevronUp, RotateCw } from "lucide-react";
import { lazy, Suspense, useCallback, useDeferredValue, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { physicalStoreOptions } from "../../api/endpoints/physical-store";
import type { Rule } from "../../api/types";
import { ErrorBoundary } from "../../components/ErrorBoundary";
import { Spinner } from "../../components/ui/spinner";
import { cn } from "../../lib/cn";
import { placeSearchHint } from "../../lib/config";
import { DEFAULT_CENTER, DEFAULT_ZOOM, PLACE_ZOOM, REDO_SEARCH_HIDE_MS } from "../../lib/constants";
import { nextTask } from "../../lib/nextTask";
import { serviceAvailable } from "../../lib/services";
import { storeStatus } from "../../lib/status";
import { useMinuteTick } from "../../lib/useMinuteTick";
import { listPhysicalStoresOptions, NO_FILTERS, SERVICE_FILTERS, type StoreFilters } from "./api/list-physical-stores";
import type { Place } from "./api/search-places";
import { FilterChips } from "./FilterChips";
import { NO_LICENCE_REGISTRY, NoLicenceRegistry } from "./LicenceCoverage";
import { locateVisitor, type LatLon } from "./geolocation";
import { Header } from "./Header";
import { MapArea } from "./MapArea";
import { clampPage, pageBounds, Pagination } from "./Pagination";
import { ResultsList } from "./ResultsList";
import { rulesByIds, RulesNote } from "./RulesNote";
import { formatLocatorUrl, parseLocatorUrl, type LocatorUrlState } from "./urlState";
import type { MapView } from "./map/types";
import { useTitle } from "../../lib/documentMeta";
import { shortPlaceName } from "../../lib/placeName";
import { embed, withEmbedParams } from "../../lib/embed";

// The store detail panel is a chunk of its own: the first paint does not show it. It is fetched
// once the first answer is shown and the page is idle, so opening a store rarely waits for it.
const loadStoreDetail = () => import("./StoreDetail");
const StoreDetail = lazy(async () => ({ default: (await loadStoreDetail()).StoreDetail }));
// The search boxes are chunks too (the entry's budget, scripts/size.mjs): the place search's is
// asked for at the first render, the server's first frame and then a look-alike box standing in
// meanwhile; the product search's (its box, the bar under the filters, each row's stock) at once
// when the address names a product, else once the first answer is shown and the page is idle.
const PlaceSearch = lazy(async () => ({ default: (await import("./PlaceSearch")).PlaceSearch }));
const loadProductUi = () => import("./product/ui");
const ProductSearch = lazy(async () => ({ default: (await loadProductUi()).ProductSearch }));
const ProductBar = lazy(async () => ({ default: (await loadProductUi()).ProductBar }));
const StoreOfferLine = lazy(async () => ({ default: (await loadProductUi()).StoreOfferLine }));
const BrandChooser = lazy(async () => ({ default: (await loadProductUi()).BrandChooser }));
const whenIdle = (run: () => void) => (typeof requestIdleCallback === "function" ? void requestIdleCallback(run, { timeout: 2000 }) : void nextTask().then(run));

const NO_RULES: Rule[] = [];

export const EMPTY_TITLE = "No Results Found";
export const EMPTY_TEXT = "Modify filters or adjust location to discover nearby stores.";
/** The widget's promise above its list (docs/embed.md, "The compliance rule"). */
export const COMPLIANT_PRODUCT = "Showing licensed stores where this product may be sold";
export const COMPLIANT_STORES = "Showing licensed stores only";

/**
 * The results line: the spec's "Showing results a-b", then how many there are in all. The list
 * holds the nearest RESULTS_LIMIT stores; when more matched (`has_more`) the exact total is not
 * known, so it says "of 200+" rather than a count it does not have.
 */
export function resultsSummary(first: number, last: number, total: number, hasMore: boolean): string {
  return `Showing results ${first}-${last} of ${total}${hasMore ? "+" : ""}`;
}

/** Whether any filter is on (the empty state then offers to clear them). */
const anyFilter = (filters: StoreFilters) => Object.values(filters).some(Boolean);

/** The place search box (in the header, or in the phone's menu, opened first). */
function focusPlaceSearch() {
  const boxes = () => [...document.querySelectorAll<HTMLInputElement>('input[role="combobox"]')].filter((el) => el.labels?.[0]?.textContent === "Search for a place");
  const shown = boxes().find((el) => el.getClientRects().length > 0);
  if (shown) {
    shown.focus();
    return;
  }
  // On a phone the box is in the menu: open it, then focus the box it shows.
  document.querySelector<HTMLButtonElement>('button[aria-controls="locator-mobile-menu"]')?.click();
  requestAnimationFrame(() => boxes().at(-1)?.focus());
}

/** The locator (route /): header, filters, map, results and the store detail panel. */
export function LocatorPage() {
  useTitle("Find a store near you");
  const [params, setParams] = useSearchParams();
  const url = useMemo(() => parseLocatorUrl(params), [params]);
  const now = useMinuteTick();

  const navigateTo = useCallback(
    (next: Partial<LocatorUrlState>, replace = false) => {
      setParams(withEmbedParams(params, formatLocatorUrl({ ...parseLocatorUrl(params), ...next })), { replace });
    },
    [params, setParams],
  );

  // Map centre on load: browser geolocation, then the IP lookup, else the default (New York).
  // A centre in the address (a chosen place, a Redo search or a shared link) wins.
  const [located, setLocated] = useState<LatLon | null>(null);
  const hasUrlCenter = url.center !== null;
  const tried = useRef(false);
  useEffect(() => {
    if (hasUrlCenter || tried.current) return;
    tried.current = true;
    // In a task of its own: the first effects' task (requests, the map's worker) stays short.
    void nextTask()
      .then(() => locateVisitor())
      .then((position) => {
        if (position) setLocated(position);
      });
  }, [hasUrlCenter]);

  const center = url.center ?? located ?? DEFAULT_CENTER;
  // "Brooklyn, NY": the heading fits a phone's line (m2); the server's first frame names it alike.
  const placeLabel = url.place !== null ? shortPlaceName(url.place) : url.center ? "this area" : located ? "your area" : "New York";
  const [searchText, setSearchText] = useState(url.place ?? "");

  const view: MapView = useMemo(
    () => ({
      latitude: center.latitude,
      longitude: center.longitude,
      zoom: url.center ? (url.place ? PLACE_ZOOM : undefined) : DEFAULT_ZOOM,
      key: `${center.latitude},${center.longitude},${url.place ?? ""}`,
    }),
    [center.latitude, center.longitude, url.center, url.place],
  );

  // Stores: each filter change reloads; Open now is also applied here in each store's zone, by
  // the same rule as the badge (lib/status.ts), so a store that closes while the page is open
  // leaves the filtered list at the next minute.
  // The widget lists only stores that pass the compliance rule, and its searches count for its partner.
  // Opened on a brand, it asks once its chooser has chosen a product.
  const brand = embed?.brand ?? null;
  const storesQuery = useQuery({
    ...listPhysicalStoresOptions({
      ...center,
      filters: url.filters,
      product: url.product,
      inStock: url.inStock,
      ...(embed && { compliant: true, partner: embed.partner }),
    }),
    enabled: brand === null || url.product !== null,
  });
  // A new answer is shown through a deferred render: React renders the results list and the
  // markers in slices between which the browser stays responsive, instead of one long task when
  // the answer arrives (the list, the map and the summary always show the same answer).
  const { data: storesData, isPending: storesPendingNow, isError: storesFailedNow, error: storesErrorNow } = storesQuery;
  const answer = useMemo(
    () => ({ data: storesData, isPending: storesPendingNow, isError: storesFailedNow, error: storesErrorNow }),
    [storesData, storesPendingNow, storesFailedNow, storesErrorNow],
  );
  const shown = useDeferredValue(answer);
  const answerRules = shown.data?.rules ?? NO_RULES;
  const stores = useMemo(() => {
    const all = shown.data?.physical_stores ?? [];
    if (!url.filters.open) return all;
    // "Delivery now" etc.: each chosen service taking orders at this minute (lib/services.ts).
    const services = (Object.keys(SERVICE_FILTERS) as (keyof typeof SERVICE_FILTERS)[]).filter((k) => url.filters[k]).map((k) => SERVICE_FILTERS[k]);
    return all.filter((s) => storeStatus(s, now).open && services.every((name) => serviceAvailable(s.services?.[name], now)));
  }, [shown.data, url.filters, now]);

  const answered = shown.data !== undefined;
  const [productUi, setProductUi] = useState(url.product !== null || brand !== null);
  useEffect(() => {
    if (answered)
      whenIdle(() => {
        void loadStoreDetail().catch(() => undefined);
        setProductUi(true);
      });
  }, [answered]);

  const searchKey = JSON.stringify([center, url.filters, url.product, url.inStock]);
  const [pageState, setPageState] = useState({ key: searchKey, page: 1 });
  const page = clampPage(pageState.key === searchKey ? pageState.page : 1, stores.length);
  const { first, last } = pageBounds(page, stores.length);
  const pageStores = useMemo(() => stores.slice(first - 1, last), [stores, first, last]);
  // Each row's number, also drawn on its pin, so list and map match at a glance.
  const numbers = useMemo(() => new Map(pageStores.map((s, i) => [s.id, first + i])), [pageStores, first]);
  const resultsTop = useRef<HTMLDivElement>(null);
  const goToPage = (p: number) => {
    setPageState({ key: searchKey, page: p });
    resultsTop.current?.scrollIntoView({ block: "nearest" });
  };

  // Selected store: the whole store, always fetched by id (the list carries a lighter entry,
  // docs/api.md "The list answer"); the list's entry shows meanwhile, so the panel opens at once.
  const listed = url.store !== null ? stores.find((s) => s.id === url.store) : undefined;
  const fetched = useQuery({ ...physicalStoreOptions(url.store ?? 0), enabled: url.store !== null });
  const whole = url.store !== null ? fetched.data : undefined;
  const selected = url.store !== null ? (whole ?? listed ?? null) : null;
  const selectedRules = useMemo(() => whole?.rules ?? rulesByIds(listed?.rule_ids, answerRules), [whole, listed, answerRules]);
  // A row pointed at or focused fetches its store ahead of the click.
  const queryClient = useQueryClient();
  const prefetch = useCallback((id: number) => void queryClient.prefetchQuery(physicalStoreOptions(id)), [queryClient]);

  const selectedId = selected?.id;
  const selectedName = selected?.name;
  const selectedLat = selected?.latitude;
  const selectedLon = selected?.longitude;
  // The same object while the selection is the same: the map (memoised) skips this page's other renders.
  const selectedOnMap = useMemo(
    () =>
      selectedId !== undefined && selectedName !== undefined && selectedLat !== undefined && selectedLon !== undefined
        ? { id: selectedId, name: selectedName, latitude: selectedLat, longitude: selectedLon }
        : null,
    [selectedId, selectedName, selectedLat, selectedLon],
  );

  const select = useCallback((id: number) => navigateTo({ store: id }), [navigateTo]);
  const chooseBrandProduct = useCallback((product: string, replace: boolean) => navigateTo({ product, store: null }, replace), [navigateTo]);
  // Closing the panel gives the focus back to the row it was opened from (when it is listed).
  const returnFocusTo = useRef<number | null>(null);
  const clearSelection = () => {
    returnFocusTo.current = url.store;
    navigateTo({ store: null });
  };
  useEffect(() => {
    if (selected !== null || returnFocusTo.current === null) return;
    const id = returnFocusTo.current;
    returnFocusTo.current = null;
    document.querySelector<HTMLButtonElement>(`#locator-results-body button[data-store-id="${id}"]`)?.focus();
  });
  // Escape closes the store panel, wherever the focus is on the page (not inside a dialog).
  const escapeCloses = useRef(clearSelection);
  useLayoutEffect(() => {
    escapeCloses.current = clearSelection;
  });
  const hasSelection = selected !== null;
  useEffect(() => {
    if (!hasSelection) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || e.defaultPrevented) return;
      if (e.target instanceof Element && e.target.closest('dialog, [role="dialog"], [role="listbox"], [role="combobox"]')) return;
      // A modal <dialog> (the age check) takes its own Escape, wherever the focus was in it.
      if (document.querySelector("dialog[open]")) return;
      escapeCloses.current();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [hasSelection]);
  const toggleFilter = (key: keyof StoreFilters) => navigateTo({ filters: { ...url.filters, [key]: !url.filters[key] }, store: null });

  const choosePlace = (place: Place) => {
    setRedoVisible(false);
    setSearchText(place.display_name);
    navigateTo({ place: place.display_name, center: { latitude: place.lat, longitude: place.lon }, store: null });
  };
  const useCurrentLocation = () => {
    void locateVisitor().then((position) => {
      if (!position) return;
      setRedoVisible(false);
      navigateTo({ place: null, center: position, store: null });
    });
  };

  // Redo search in this area: the map centre. It shows once the user has moved the map (not for
  // the app's own moves: the first view, framing the results, opening a store), is hidden for
  // 500 ms after use and shown again when the user moves the map (docs/product-rules.md).
  const mapCenter = useRef<LatLon>(center);
  const [redoVisible, setRedoVisible] = useState(false);
  const redoHiddenUntil = useRef(0);
  const onCenterChange = useCallback((c: LatLon, byUser: boolean) => {
    mapCenter.current = c;
    if (byUser && Date.now() >= redoHiddenUntil.current) setRedoVisible(true);
  }, []);
  const redoSearch = () => {
    setRedoVisible(false);
    redoHiddenUntil.current = Date.now() + REDO_SEARCH_HIDE_MS;
    setSearchText("");
    navigateTo({ place: null, center: mapCenter.current, store: null });
  };

  // The phone's bottom sheet: opening a store shows it; "Hide results" only lowers it (the store
  // stays open and its pin shows on the map); "Back to results" closes the store.
  const [sheetOpen, setSheetOpen] = useState(false);
  const [sheetFor, setSheetFor] = useState<number | null>(null);
  if ((selectedId ?? null) !== sheetFor) {
    setSheetFor(selectedId ?? null);
    if (selectedId !== undefined) setSheetOpen(true);
  }
  const showSheet = sheetOpen;
  // How much of the map the sheet covers (it is fixed over the map's bottom on a phone only).
  const sheet = useRef<HTMLElement>(null);
  const [coverBottom, setCoverBottom] = useState(0);
  useEffect(() => {
    const node = sheet.current;
    if (!node || typeof ResizeObserver === "undefined") return;
    const measure = () => setCoverBottom(getComputedStyle(node).position === "fixed" ? Math.round(node.getBoundingClientRect().height) : 0);
    const observer = new ResizeObserver(measure);
    observer.observe(node);
    window.addEventListener("resize", measure);
    return () => {
      observer.disconnect();
      window.removeEventListener("resize", measure);
    };
  }, []);

  // A search box until its code has come, as the server's first frame draws it.
  const box = (hint: string) => (
    <div aria-hidden="true" className="w-full rounded-md border border-gray-300 bg-white py-2 pr-3 pl-9 text-sm text-gray-500">
      {hint}
    </div>
  );
  const productBox = box("Search product, brand or GTIN");
  const search = (
    <div className="flex flex-col gap-2 md:flex-row">
      <div className="md:flex-1">
        <Suspense fallback={box(placeSearchHint())}>
          <PlaceSearch value={searchText} onValueChange={setSearchText} onChoose={choosePlace} onCurrentLocation={useCurrentLocation} near={center} />
        </Suspense>
      </div>
      <div className={cn("md:flex-1", brand !== null && "hidden")}>
        {productUi || url.product !== null ? (
          <Suspense fallback={productBox}>
            <ProductSearch
              productId={url.product}
              onChoose={(product) => navigateTo({ product: product.id, store: null })}
              onClear={() => navigateTo({ product: null, inStock: false, store: null })}
            />
          </Suspense>
        ) : (
          productBox
        )}
      </div>
    </div>
  );

  const loading = storesQuery.isFetching || (url.store !== null && !selected && fetched.isFetching);
  // "Licence verified" where no registry covers the area keeps nothing: say why (docs/licences.md).
  const licenceCovered = shown.data?.licence_registry !== false;
  const noRegistry = url.filters.licensed && !licenceCovered;
  const summary = shown.isPending
    ? ""
    : stores.length === 0
      ? noRegistry
        ? NO_LICENCE_REGISTRY
        : EMPTY_TITLE
      : resultsSummary(first, last, stores.length, shown.data?.has_more === true);

  return (
    <div className={cn("flex flex-col bg-white", !embed && "h-dvh")}>
      <a
        href="#locator-results-body"
        className="sr-only z-50 rounded-md bg-white px-3 py-2 text-sm font-medium text-emerald-800 underline shadow focus:not-sr-only focus:absolute focus:top-2 focus:left-2"
        onClick={(e) => {
          e.preventDefault();
          setSheetOpen(true);
          const target = document.getElementById("locator-results-body");
          target?.focus();
        }}
      >
        Skip to results
      </a>
      {embed ? <div className="border-b border-gray-200 px-3 py-2">{search}</div> : <Header search={search} />}
      <main
        className={cn(
          "relative min-w-0",
          embed
            ? "flex flex-col"
            : "grid min-h-0 flex-1 grid-cols-[minmax(0,1fr)] grid-rows-[auto_1fr] md:grid-cols-[26rem_minmax(0,1fr)]",
        )}
      >
        <div className={cn("border-b border-gray-200 px-3 pt-2 pb-2", !embed && "md:col-start-1 md:row-start-1 md:border-r md:px-4 md:pt-3")}>
          <nav aria-label="Breadcrumb" className={cn("text-xs text-gray-700", embed && "hidden")}>
            <ol className="flex gap-1">
              <li>
                <Link to="/" className="underline hover:text-gray-900">
                  Home
                </Link>
              </li>
              <li aria-hidden="true">/</li>
              <li aria-current="page" className="truncate">
                {placeLabel}
              </li>
            </ol>
          </nav>
          <div className="mt-1 flex items-baseline justify-between gap-2">
            {/* One text node, as the server's first frame writes it (internal/httpapi/frames/locator.html): two would measure a pixel wider and repaint the largest text. */}
            <h1 className="truncate text-lg font-semibold text-gray-900 md:text-xl">{`Stores in ${placeLabel}`}</h1>
            <Link to="/claim" className={cn("hidden min-h-6 shrink-0 items-center text-sm font-medium text-emerald-800 underline", !embed && "md:inline-flex")}>
              Claim your store
            </Link>
          </div>
          {embed && (
            <p role="note" className="mt-1 text-sm text-gray-700">
              {url.product !== null || brand !== null ? COMPLIANT_PRODUCT : COMPLIANT_STORES}
            </p>
          )}
          {brand !== null && (
            <Suspense fallback={null}>
              <BrandChooser brand={brand} partner={embed?.partner ?? null} productId={url.product} onChoose={chooseBrandProduct} />
            </Suspense>
          )}
          <div className="mt-2">
            <FilterChips filters={url.filters} onToggle={toggleFilter} licenceCovered={licenceCovered} />
            {url.product !== null && (
              <Suspense fallback={null}>
                <ProductBar
                  productId={url.product}
                  inStock={url.inStock}
                  onInStock={() => navigateTo({ inStock: !url.inStock, store: null })}
                  onClear={brand === null ? () => navigateTo({ product: null, inStock: false, store: null }) : undefined}
                />
              </Suspense>
            )}
          </div>
        </div>

        <div className={cn("relative", embed ? (embed.view === "list" ? "hidden" : "h-80") : "row-start-2 min-h-0 md:col-start-2 md:row-span-2 md:row-start-1")}>
          {/* Before the map in the document, so the focus reaches it before the map's markers. */}
          {redoVisible && (
            <button
              type="button"
              onClick={redoSearch}
              className="absolute top-3 left-1/2 z-10 inline-flex whitespace-nowrap -translate-x-1/2 items-center gap-1.5 rounded-full bg-white px-4 py-2 text-sm font-medium text-gray-900 shadow-md hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-emerald-700"
            >
              <RotateCw aria-hidden="true" className="size-4" />
              Redo search in this area
            </button>
          )}
          {embed?.view !== "list" && (
          <MapArea
            stores={stores}
            selectedId={url.store}
            view={view}
            selected={selectedOnMap}
            numbers={numbers}
            onSelect={select}
            onCenterChange={onCenterChange}
            coverBottom={coverBottom}
          />
          )}
        </div>

        <section
          ref={sheet}
          aria-label="Results"
          className={
            embed
              ? "flex flex-col"
              : cn(
                  "fixed inset-x-0 bottom-0 z-20 flex flex-col rounded-t-xl border-t border-gray-200 bg-white shadow-[0_-4px_12px_rgb(0_0_0/0.12)]",
                  // An open store: a sheet of a fixed half height, so its pin keeps its place above it.
                  !showSheet ? "max-h-16" : selected ? "h-[50dvh]" : "max-h-[70dvh]",
                  "md:static md:z-auto md:col-start-1 md:row-start-2 md:max-h-none md:min-h-0 md:rounded-none md:border-t-0 md:border-r md:shadow-none",
                )
          }
        >
          <div className="flex items-center justify-between gap-2 px-4 py-3 md:py-2">
            <p className="text-sm font-medium text-gray-900" aria-live="polite">
              {summary}
            </p>
            {loading && <Spinner label="Loading stores" className="text-xs" />}
            <button
              type="button"
              className={cn("ml-auto inline-flex shrink-0 items-center gap-1 rounded-md px-2 py-1 text-sm font-medium whitespace-nowrap text-emerald-800 md:hidden", embed && "hidden")}
              aria-expanded={showSheet}
              aria-controls="locator-results-body"
              onClick={() => setSheetOpen((v) => !v)}
            >
              {showSheet ? "Hide results" : "Show results"}
              <ChevronUp aria-hidden="true" className={cn("size-4 transition-transform", showSheet && "rotate-180")} />
            </button>
          </div>
          <div
            id="locator-results-body"
            ref={resultsTop}
            tabIndex={-1}
            className={embed ? undefined : cn("min-h-0 flex-1 overflow-y-auto", !showSheet && "hidden md:block")}
          >
            {selected ? (
              <ErrorBoundary
                key={selected.id}
                fallback={
                  <div className="px-4 py-3 text-sm">
                    <p role="alert" className="text-red-800">
                      Could not load the store&apos;s details. Reload the page to try again.
                    </p>
                    <button type="button" onClick={clearSelection} className="mt-2 font-medium text-emerald-800 underline">
                      Back to results
                    </button>
                  </div>
                }
              >
                <Suspense fallback={<Spinner label="Loading store" className="px-4 py-3 text-xs" />}>
                  <StoreDetail
                    store={selected}
                    whole={whole}
                    rules={selectedRules}
                    distance={listed?.distance}
                    onBack={clearSelection}
                    now={now}
                    product={url.product}
                  />
                </Suspense>
              </ErrorBoundary>
            ) : shown.isError ? (
              <p role="alert" className="px-4 py-3 text-sm text-red-800">
                Could not load stores: {shown.error?.message}
              </p>
            ) : shown.isPending ? null : stores.length === 0 && noRegistry ? (
              <NoLicenceRegistry onShowAll={() => toggleFilter("licensed")} />
            ) : stores.length === 0 ? (
              // The title is the results line above (said once); here what to do about it.
              <div className="px-4 py-4 text-center">
                <p className="text-sm text-gray-700">{EMPTY_TEXT}</p>
                <div className="mt-3 flex flex-wrap justify-center gap-2">
                  {anyFilter(url.filters) && (
                    <button
                      type="button"
                      onClick={() => navigateTo({ filters: NO_FILTERS, store: null })}
                      className="rounded-md bg-emerald-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-emerald-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700"
                    >
                      Clear filters
                    </button>
                  )}
                  <button
                    type="button"
                    onClick={focusPlaceSearch}
                    className="rounded-md border border-gray-300 px-3 py-1.5 text-sm font-medium text-gray-900 hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700"
                  >
                    Search another place
                  </button>
                </div>
              </div>
            ) : (
              <>
                <RulesNote stores={stores} rules={answerRules} />
                <ResultsList
                  stores={pageStores}
                  first={first}
                  onSelect={select}
                  onPrefetch={prefetch}
                  now={now}
                  Offer={url.product !== null ? StoreOfferLine : undefined}
                />
                <Pagination page={page} total={stores.length} onPage={goToPage} />
              </>
            )}
          </div>
        </section>

        <Link
          to="/claim"
          className={cn(
            "fixed right-4 bottom-20 z-20 rounded-full bg-emerald-700 px-4 py-3 text-sm font-semibold text-white shadow-lg md:hidden",
            (showSheet || embed) && "hidden",
          )}
        >
          Claim your store
        </Link>
      </main>
    </div>
  );
}

