

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
}

/** Store clustering, shared by the MapLibre source and the static preview. */
export const CLUSTER_RADIUS = 48;
export const CLUSTER_MAX_ZOOM = 15;
