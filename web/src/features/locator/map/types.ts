

/** What the map draws of a store: its pin. */
export interface MapStore {
  id: number;
  name: string;
  latitude: number;
  longitude: number;
}

/** Where the map should look; it moves when `key` changes. No zoom keeps the current zoom. */
export interface MapView {
  latitude: number;
  longitude: number;
  zoom?: number;
  key: string;
}

export interface SelectedStore {
  id: number;
  name: string;
  latitude: number;
  longitude: number;
}

/** The zoom the map eases to (at least) when a store is opened. */
export const SELECTED_ZOOM = 14;

export interface StoreMapProps {
  stores: readonly MapStore[];
  selectedId: number | null;
  view: MapView;
  /**
   * The opened store: the map eases to it and draws its marker apart from the clusters (larger,
   * another colour, a button of its own); when it is closed the map returns to where it was.
   */
  selected: SelectedStore | null;
  /** Store id -> its row's number on the current page of results, drawn on its pin. */
  numbers?: ReadonlyMap<number, number>;
  onSelect: (id: number) => void;
  /** The map centre after each move; `byUser` is false for moves the app made. */
  onCenterChange: (center: { latitude: number; longitude: number }, byUser: boolean) => void;
  onError?: () => void;
  /**
   * CSS pixels at the bottom of the map hidden under the phone's bottom sheet (0 on a desktop):
   * the opened store and the framed rows are shown in the part left free.
   */
  coverBottom?: number;
}

/** Store clustering, shared by the MapLibre source and the static preview. */
export const CLUSTER_RADIUS = 48;
export const CLUSTER_MAX_ZOOM = 15;

/**
 * A cluster holds only stores that are not rows of the page shown (those always stand as numbered
 * pins), so it reads "+7" on a white stacked disc: it cannot be taken for row 7's green number.
 */
export function clusterText(abbreviated: string | number): string {
  return `+${abbreviated}`;
}

/** The cluster's name for screen readers: how many stores, and what pressing it does. */
export function clusterLabel(count: number): string {
  return `${count} stores, zoom in`;
}

/** The stores that go into the clusters: not the opened one (its own marker), not the numbered rows of the page. */
export function clusteredStores<T extends MapStore>(stores: readonly T[], selectedId: number | null, numbers: ReadonlyMap<number, number> | undefined): T[] {
  return stores.filter((s) => s.id !== selectedId && !numbers?.has(s.id));
}

/** The page's rows as pins (never clustered), in row order, without the opened store. */
export function numberedStores<T extends MapStore>(stores: readonly T[], selectedId: number | null, numbers: ReadonlyMap<number, number> | undefined): T[] {
  if (!numbers || numbers.size === 0) return [];
  return stores.filter((s) => s.id !== selectedId && numbers.has(s.id)).sort((a, b) => (numbers.get(a.id) ?? 0) - (numbers.get(b.id) ?? 0));
}
